import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useToast } from '@/design-system'
import {
  notificationKeys,
  type Preferences,
  type PreferencesChange,
  preferencesQuery,
  preferencesUpdate,
} from '../api'

export const PREFERENCES_SAVED = 'Notification settings saved.'

/** The person's notification choices, and changing one (shown at once, undone on failure). */
export function usePreferences() {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const query = useQuery(preferencesQuery())
  const mutation = useMutation({
    mutationFn: preferencesUpdate,
    onMutate: async (change: PreferencesChange) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.preferences })
      const before = queryClient.getQueryData<Preferences>(notificationKeys.preferences)
      if (before) queryClient.setQueryData(notificationKeys.preferences, { ...before, ...change })
      return { before }
    },
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(notificationKeys.preferences, context.before)
      toast({ message: error.message, severity: 'error', autoDismiss: true })
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationKeys.preferences, saved)
      toast({ message: PREFERENCES_SAVED, severity: 'success', autoDismiss: true, id: 'prefs' })
    },
  })
  return { query, change: (change: PreferencesChange) => mutation.mutate(change) }
}
