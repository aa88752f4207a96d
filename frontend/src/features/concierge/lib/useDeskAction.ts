import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query'
import { useToast } from '@/design-system'
import { type DeskApiError, type DeskRequest, deskKeys } from '../api'

/**
 * A write's answer into the cached request. A refetch already under way (a live update's)
 * was read before the write and would put the request back as it was when it lands: it is
 * dropped, and the request read again once the answer is in.
 */
export async function cacheDeskAnswer(
  queryClient: QueryClient,
  requestId: number,
  update: (cached: DeskRequest | undefined) => DeskRequest | undefined,
) {
  const queryKey = deskKeys.detail(requestId)
  const overtaken = queryClient.isFetching({ queryKey }) > 0
  if (overtaken) await queryClient.cancelQueries({ queryKey })
  queryClient.setQueryData<DeskRequest>(queryKey, update)
  if (overtaken) void queryClient.invalidateQueries({ queryKey })
}

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
    onSuccess: async (answer) => {
      await cacheDeskAnswer(queryClient, requestId, (cached) => update(cached, answer))
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
