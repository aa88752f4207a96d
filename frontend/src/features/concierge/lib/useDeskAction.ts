import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useToast } from '@/design-system'
import { type DeskApiError, type DeskRequest, deskKeys } from '../api'

interface DeskWriteOptions<TAnswer> {
  onSuccess?: (answer: TAnswer) => void
  /** After the answer is in the cache, or the refusal in a toast. */
  onSettled?: () => void
  toastErrors?: boolean
}

/**
 * A desk write on one request: `update` puts its answer into the cached request, the queue is
 * refetched, and a refusal (e.g. a 422 saying why a status change is not allowed) is shown in
 * a toast.
 */
export function useDeskWrite<TVariables, TAnswer>(
  requestId: number,
  run: (variables: TVariables) => Promise<TAnswer>,
  update: (cached: DeskRequest | undefined, answer: TAnswer) => DeskRequest | undefined,
  options: DeskWriteOptions<TAnswer> = {},
) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  return useMutation<TAnswer, DeskApiError, TVariables>({
    mutationFn: run,
    onSuccess: (answer) => {
      queryClient.setQueryData<DeskRequest>(deskKeys.detail(requestId), (cached) =>
        update(cached, answer),
      )
      void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
      options.onSuccess?.(answer)
    },
    onError: (error) => {
      if (options.toastErrors === false) return
      toast({ message: error.message, severity: 'error', autoDismiss: true })
    },
    onSettled: () => options.onSettled?.(),
  })
}

/** A desk write that answers the whole request (claim, assign, status): it replaces the cached one. */
export function useDeskAction<TVariables>(
  requestId: number,
  run: (variables: TVariables) => Promise<DeskRequest>,
  options: DeskWriteOptions<DeskRequest> = {},
) {
  return useDeskWrite(requestId, run, (_cached, request) => request, options)
}
