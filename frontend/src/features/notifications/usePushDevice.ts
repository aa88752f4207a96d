import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useState } from 'react'
import { deviceSave, notificationKeys, pushKeyQuery } from './api'
import { currentSubscription, pushSupported, subscribe, unsubscribe } from './push'

export type PushState = 'unsupported' | 'unavailable' | 'denied' | 'off' | 'on' | 'loading'

export const PUSH_FAILED = 'We couldn’t turn on notifications in this browser. Please try again.'
export const PUSH_BLOCKED =
  'Notifications are blocked for this site. Allow them in your browser’s site settings, then try again.'

/** This browser's push: whether it can, whether it is on, turning it on and off. */
export function usePushDevice() {
  const supported = pushSupported()
  const key = useQuery({ ...pushKeyQuery(), enabled: supported })
  const queryClient = useQueryClient()
  const [endpoint, setEndpoint] = useState<string | null>(null)
  const [checked, setChecked] = useState(!supported)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    if (!supported) return
    let live = true
    void currentSubscription().then(
      (sub) => {
        if (!live) return
        setEndpoint(sub?.endpoint ?? null)
        setChecked(true)
      },
      () => live && setChecked(true),
    )
    return () => {
      live = false
    }
  }, [supported])

  const state: PushState = !supported
    ? 'unsupported'
    : key.isPending || !checked
      ? 'loading'
      : !key.data
        ? 'unavailable'
        : endpoint
          ? 'on'
          : Notification.permission === 'denied'
            ? 'denied'
            : 'off'

  const turnOn = useCallback(async (): Promise<string | null> => {
    if (!key.data) return PUSH_FAILED
    setBusy(true)
    try {
      const sub = await subscribe(key.data)
      await deviceSave(sub.toJSON(), { explicit: true })
      setEndpoint(sub.endpoint)
      await queryClient.invalidateQueries({ queryKey: notificationKeys.devices })
      return null
    } catch (error) {
      return error instanceof Error && error.message === 'permission' ? PUSH_BLOCKED : PUSH_FAILED
    } finally {
      setBusy(false)
    }
  }, [key.data, queryClient])

  /** This browser stops getting push (its device was removed): its subscription ends too. */
  const turnOffHere = useCallback(async () => {
    await unsubscribe().catch(() => undefined) // the server no longer sends to it either way
    setEndpoint(null)
  }, [])

  return { state, endpoint, busy, turnOn, turnOffHere }
}
