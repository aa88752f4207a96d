import { useQuery, useQueryClient } from '@tanstack/react-query'
import { LogOut, Monitor, Smartphone } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button, RetryAlert, Skeleton, useToast } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { relativeTime } from '@/lib/format'
import {
  deviceSignOut,
  otherDevicesSignOut,
  type SignedInDevice,
  signedInDevicesQuery,
} from '../api'
import { SettingsSection } from './SettingsSection'

const PHONES = /iPhone|iPad|Android/

/** The devices signed in to the account, and signing one or all of the others out: someone
 * who lost a phone, or sees a device they don't know, ends its session from here. */
export function DevicesSection() {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const devices = useQuery(signedInDevicesQuery)
  const [busy, setBusy] = useState<number | 'others' | null>(null)
  const list = useRef<HTMLDivElement>(null)
  const others = devices.data?.filter((device) => !device.current) ?? []

  // After a sign-out the focus goes to the row that took the signed-out one's place (or the
  // one before it), else to the list's summary: never to the page's top. It moves once the
  // list on screen no longer shows the devices signed out, so it never lands on a row that is
  // about to leave.
  const pendingFocus = useRef<{ gone: Set<number>; index: number } | null>(null)
  useEffect(() => {
    const pending = pendingFocus.current
    if (!pending || busy !== null || devices.data?.some((device) => pending.gone.has(device.id)))
      return
    pendingFocus.current = null
    const buttons = list.current?.querySelectorAll<HTMLElement>('[data-sign-out]')
    const next = buttons?.[Math.min(pending.index, buttons.length - 1)]
    ;(next ?? list.current?.querySelector<HTMLElement>('[data-summary]'))?.focus()
  }, [devices.data, busy])
  const focusAfter = (gone: SignedInDevice[], index: number) => {
    pendingFocus.current = { gone: new Set(gone.map((device) => device.id)), index }
  }

  const signOut = async (device: SignedInDevice, index: number) => {
    setBusy(device.id)
    try {
      const result = await deviceSignOut(device.id)
      await queryClient.invalidateQueries({ queryKey: signedInDevicesQuery.queryKey })
      if (result.ok)
        toast({
          message: `Signed out of ${device.device}.`,
          severity: 'success',
          autoDismiss: true,
        })
      else toast({ message: result.error, severity: 'error' })
      focusAfter([device], index)
    } catch (error) {
      toast({ message: unexpectedError(error), severity: 'error' })
    } finally {
      setBusy(null)
    }
  }
  const signOutOthers = async () => {
    setBusy('others')
    try {
      const result = await otherDevicesSignOut()
      await queryClient.invalidateQueries({ queryKey: signedInDevicesQuery.queryKey })
      if (result.ok)
        toast({ message: signedOutMessage(result.value), severity: 'success', autoDismiss: true })
      else toast({ message: result.error, severity: 'error' })
      focusAfter(others, 0)
    } catch (error) {
      toast({ message: unexpectedError(error), severity: 'error' })
    } finally {
      setBusy(null)
    }
  }

  return (
    <SettingsSection title="Signed-in devices">
      {devices.isPending ? (
        <Skeleton className="h-16 w-full rounded-xl" />
      ) : devices.isError ? (
        <RetryAlert
          message="We couldn’t load your signed-in devices."
          compact
          onRetry={() => void devices.refetch()}
        />
      ) : (
        <div ref={list} className="flex flex-col gap-4">
          <p data-summary tabIndex={-1} className="text-sm text-ink-muted focus:outline-none">
            {others.length
              ? 'These devices are signed in to your account. Sign out any you don’t recognise.'
              : 'Only this device is signed in to your account.'}
          </p>
          <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
            {devices.data.map((device) => (
              <DeviceRow
                key={device.id}
                device={device}
                busy={busy === device.id}
                onSignOut={() => void signOut(device, others.indexOf(device))}
              />
            ))}
          </ul>
          {others.length > 1 ? (
            <Button
              variant="secondary"
              icon={<LogOut />}
              className="self-start"
              loading={busy === 'others'}
              onClick={() => void signOutOthers()}
            >
              Sign out of all other devices
            </Button>
          ) : null}
        </div>
      )}
    </SettingsSection>
  )
}

function signedOutMessage(count: number): string {
  if (count === 0) return 'No other device was signed in.'
  return `Signed out of ${count} other ${count === 1 ? 'device' : 'devices'}.`
}

function DeviceRow({
  device,
  busy,
  onSignOut,
}: {
  device: SignedInDevice
  busy: boolean
  onSignOut: () => void
}) {
  const Icon = PHONES.test(device.device) ? Smartphone : Monitor
  return (
    <li className="flex flex-wrap items-center gap-3 p-4" data-testid="signed-in-device">
      <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="break-words font-medium text-ink">{device.device}</p>
        <p className="text-sm text-ink-muted">
          Signed in {relativeTime(device.signed_in_at).toLowerCase()}
        </p>
        {device.current ? (
          <p className="mt-1 inline-flex rounded-full bg-success-50 px-2.5 py-0.5 text-sm font-medium text-success-700">
            This device
          </p>
        ) : null}
      </div>
      {device.current ? null : (
        <Button
          variant="tertiary"
          size="sm"
          data-sign-out
          loading={busy}
          onClick={onSignOut}
          aria-label={`Sign out of ${device.device}, signed in ${relativeTime(device.signed_in_at).toLowerCase()}`}
        >
          Sign out
        </Button>
      )}
    </li>
  )
}
