/** Notification preferences, web push devices and one-click unsubscribe (issue 28). */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, type Schemas } from '@/api/client'

export type Preferences = Schemas['PreferencesOut']
export type PreferencesChange = Schemas['PreferencesIn']
export type PushDevice = Schemas['PushSubscriptionOut']

/** A failed call: the server's message for a person. */
export class NotificationsApiError extends Error {}

export const notificationKeys = {
  preferences: ['notifications', 'preferences'] as const,
  devices: ['notifications', 'devices'] as const,
  pushKey: ['notifications', 'push-key'] as const,
}

export function preferencesQuery() {
  return queryOptions({
    queryKey: notificationKeys.preferences,
    queryFn: async (): Promise<Preferences> => {
      const { data, error, response } = await api.GET('/api/v1/notifications/preferences')
      if (!data) throw new NotificationsApiError(errorMessage(error, response))
      return data
    },
  })
}

export async function preferencesUpdate(change: PreferencesChange): Promise<Preferences> {
  const { data, error, response } = await api.PATCH('/api/v1/notifications/preferences', {
    body: change,
  })
  if (!data) throw new NotificationsApiError(errorMessage(error, response))
  return data
}

/** The server's VAPID public key, or null when push is not set up on this server. */
export function pushKeyQuery() {
  return queryOptions({
    queryKey: notificationKeys.pushKey,
    queryFn: async (): Promise<string | null> => {
      const { data, error, response } = await api.GET('/api/v1/notifications/push_key')
      if (!data) throw new NotificationsApiError(errorMessage(error, response))
      return data.available ? (data.public_key ?? null) : null
    },
    staleTime: Infinity,
  })
}

/** The person's devices; this browser's (saved in this session) is marked `current`. */
export function devicesQuery() {
  return queryOptions({
    queryKey: notificationKeys.devices,
    queryFn: async (): Promise<PushDevice[]> => {
      const { data, error, response } = await api.GET('/api/v1/notifications/push_subscriptions')
      if (!data) throw new NotificationsApiError(errorMessage(error, response))
      return data.push_subscriptions
    },
  })
}

/** The server has no device for this browser (its person removed it), and only turning
 * notifications on adds one. */
export class DeviceNotOnFile extends NotificationsApiError {}

/** Saves this browser's subscription: `explicit` when the person turned notifications on just
 * now, which alone adds a device; the app's own save on start only updates one. */
export async function deviceSave(
  subscription: PushSubscriptionJSON,
  { explicit }: { explicit: boolean },
): Promise<PushDevice> {
  const { data, error, response } = await api.POST('/api/v1/notifications/push_subscriptions', {
    body: {
      endpoint: subscription.endpoint ?? '',
      keys: { p256dh: subscription.keys?.p256dh ?? '', auth: subscription.keys?.auth ?? '' },
      explicit,
    },
  })
  if (response.status === 404) throw new DeviceNotOnFile(errorMessage(error, response))
  if (!data) throw new NotificationsApiError(errorMessage(error, response))
  return data
}

export async function deviceRemove(id: number): Promise<void> {
  const { error, response } = await api.DELETE(
    '/api/v1/notifications/push_subscriptions/{subscription_id}',
    { params: { path: { subscription_id: id } } },
  )
  if (!response.ok) throw new NotificationsApiError(errorMessage(error, response))
}

export async function unsubscribe(token: string): Promise<'reply' | 'completion'> {
  const { data, error, response } = await api.POST('/api/v1/notifications/unsubscribe/{token}', {
    params: { path: { token } },
  })
  if (!data) throw new NotificationsApiError(errorMessage(error, response))
  return data.kind === 'completion' ? 'completion' : 'reply'
}
