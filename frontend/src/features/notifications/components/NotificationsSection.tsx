import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Bell, MonitorSmartphone } from 'lucide-react'
import { useState } from 'react'
import {
  Button,
  CheckboxField,
  cx,
  FormError,
  Paragraph,
  RetryAlert,
  Skeleton,
  useToast,
} from '@/design-system'
import { formatDate } from '@/lib/format'
import { deviceRemove, devicesQuery, notificationKeys, type PushDevice, pushKeyQuery } from '../api'
import { usePushDevice } from '../usePushDevice'
import { usePreferences } from './usePreferences'

export const PUSH_UNAVAILABLE = 'Push notifications are not set up on this server yet.'
export const PUSH_UNSUPPORTED = 'This browser can’t show notifications from the app.'
export const DEVICE_REMOVED = 'This device won’t get notifications any more.'
export const DEVICES_FAILED = 'We couldn’t load your devices.'
export const PREFERENCES_FAILED = 'We couldn’t load your notification choices.'

/** Account page: how the person hears about their requests (issue 28). */
export function NotificationsSection() {
  const { query, change } = usePreferences()
  const prefs = query.data
  const pushOffered = useServerPush()
  return (
    // Not a named region: the toasts' region is already called 'Notifications'.
    <section
      data-testid="notifications-section"
      className="flex flex-col gap-5 rounded-2xl border border-line bg-surface p-5 shadow-xs sm:p-6"
    >
      <h2 className="text-lg font-semibold text-ink">Notifications</h2>
      {query.isError ? (
        <RetryAlert message={PREFERENCES_FAILED} compact onRetry={() => void query.refetch()} />
      ) : !prefs ? (
        <Skeleton className="h-40 w-full" />
      ) : (
        <>
          <KindChoice
            legend="When your concierge replies"
            email={prefs.reply_email}
            push={pushOffered ? prefs.reply_push : undefined}
            onEmail={(on) => change({ reply_email: on })}
            onPush={(on) => change({ reply_push: on })}
          />
          <KindChoice
            legend="When a request is completed"
            email={prefs.completion_email}
            push={pushOffered ? prefs.completion_push : undefined}
            onEmail={(on) => change({ completion_email: on })}
            onPush={(on) => change({ completion_push: on })}
          />
          {pushOffered ? (
            <CheckboxField
              label="Show message text in notifications"
              hint="Notifications can appear on a locked screen. Leave this off to keep what your concierge wrote private."
              checked={prefs.show_previews}
              onChange={(on) => change({ show_previews: on })}
            />
          ) : null}
          <PushDevices />
        </>
      )}
    </section>
  )
}

/** Whether this server sends push notifications at all (false only once it said it does not):
 * without them, there is no push choice to make. */
export function useServerPush(): boolean {
  return useQuery(pushKeyQuery()).data !== null
}

function KindChoice({
  legend,
  email,
  push,
  onEmail,
  onPush,
}: {
  legend: string
  email: boolean
  /** Undefined: the server sends no push, so there is nothing to choose. */
  push: boolean | undefined
  onEmail: (on: boolean) => void
  onPush: (on: boolean) => void
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-base font-semibold text-ink">{legend}</legend>
      <div className="flex flex-wrap gap-x-8 gap-y-3">
        <CheckboxField label="Email" checked={email} onChange={onEmail} />
        {push === undefined ? null : (
          <CheckboxField label="Push notification" checked={push} onChange={onPush} />
        )}
      </div>
    </fieldset>
  )
}

/** This browser's push, and every device that gets the person's push notifications; `compact`
 * in the desk's menu, at the size of the preferences above it. */
export function PushDevices({ compact = false }: { compact?: boolean }) {
  const textSize = compact ? 'sm' : 'md'
  const push = usePushDevice()
  const [error, setError] = useState<string | null>(null)
  const devices = useQuery(devicesQuery())
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const remove = useMutation({
    mutationFn: (device: PushDevice) => deviceRemove(device.id),
    onSuccess: async (_, device) => {
      if (device.current) await push.turnOffHere()
      toast({ message: DEVICE_REMOVED, severity: 'success', autoDismiss: true })
      await queryClient.invalidateQueries({ queryKey: notificationKeys.devices })
    },
    onError: (e) => toast({ message: e.message, severity: 'error', autoDismiss: true }),
  })

  return (
    <div className="flex flex-col gap-3 border-t border-line pt-5">
      <h3 className={cx('font-semibold text-ink', compact ? 'text-sm' : 'text-base')}>Devices</h3>
      {push.state === 'unavailable' ? (
        <Paragraph size={textSize} tone="muted">
          {PUSH_UNAVAILABLE}
        </Paragraph>
      ) : null}
      {push.state === 'unsupported' ? (
        <Paragraph size={textSize} tone="muted">
          {PUSH_UNSUPPORTED}
        </Paragraph>
      ) : null}
      {push.state === 'off' || push.state === 'denied' ? (
        <div className="flex flex-col gap-2">
          <Button
            variant="secondary"
            size={compact ? 'sm' : 'md'}
            icon={<Bell />}
            loading={push.busy}
            className="self-start"
            onClick={async () => setError(await push.turnOn())}
          >
            Turn on notifications in this browser
          </Button>
          <FormError message={error} />
        </div>
      ) : null}
      {devices.isError ? (
        <RetryAlert message={DEVICES_FAILED} compact onRetry={() => void devices.refetch()} />
      ) : devices.data && devices.data.length > 0 ? (
        <ul aria-label="Devices that get notifications" className="flex flex-col gap-2">
          {devices.data.map((device) => (
            <DeviceRow
              key={device.id}
              device={device}
              removing={remove.isPending && remove.variables?.id === device.id}
              onRemove={() => remove.mutate(device)}
            />
          ))}
        </ul>
      ) : devices.data ? (
        <Paragraph size={textSize} tone="muted">
          No device gets push notifications yet.
        </Paragraph>
      ) : null}
    </div>
  )
}

function DeviceRow({
  device,
  removing,
  onRemove,
}: {
  device: PushDevice
  removing: boolean
  onRemove: () => void
}) {
  return (
    <li className="flex items-center gap-3 rounded-xl bg-surface-muted px-3 py-2.5">
      <MonitorSmartphone aria-hidden="true" className="size-5 shrink-0 text-ink-muted" />
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-semibold text-ink">
          {device.device_label}
          {device.current ? (
            <span className="font-normal text-ink-muted"> · this browser</span>
          ) : null}
        </p>
        <p className="text-sm text-ink-muted">Added {formatDate(device.created_at)}</p>
      </div>
      <Button
        variant="tertiary"
        size="sm"
        loading={removing}
        aria-label={`Remove ${device.device_label}`}
        onClick={onRemove}
      >
        Remove
      </Button>
    </li>
  )
}
