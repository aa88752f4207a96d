import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useToast } from '@/design-system'
import { type DeskApiError, type DeskRequest, deskKeys } from '../api'

/**
 * A desk write that answers the whole request (claim, assign, status, reply): the answer
 * replaces the cached request, the queue is refetched, and a refusal (e.g. a 422 saying why a
 * status change is not allowed) is shown in a toast.
 */
export function useDeskAction<TVariables>(
  requestId: number,
  run: (variables: TVariables) => Promise<DeskRequest>,
  options: {
    onSuccess?: (request: DeskRequest) => void
    /** After the answer is in the cache, or the refusal in a toast. */
    onSettled?: () => void
    toastErrors?: boolean
  } = {},
) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  return useMutation<DeskRequest, DeskApiError, TVariables>({
    mutationFn: run,
    onSuccess: (request) => {
      queryClient.setQueryData(deskKeys.detail(requestId), request)
      void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
      options.onSuccess?.(request)
    },
    onError: (error) => {
      if (options.toastErrors === false) return
      toast({ message: error.message, severity: 'error', autoDismiss: true })
    },
    onSettled: () => options.onSettled?.(),
  })
}
