import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound, RefreshCw, ShieldOff } from 'lucide-react'
import { useRef, useState } from 'react'
import {
  Button,
  ConfirmDialog,
  CopyField,
  Paragraph,
  RetryAlert,
  Skeleton,
  useToast,
} from '@/design-system'
import { formatWhen } from '@/lib/format'
import {
  fetchScimStatus,
  type ScimTokenCreated,
  scimStatusQueryKey,
  scimTokenCreate,
  scimTokenRevoke,
} from '../provisioningApi'

/**
 * SCIM provisioning: the base URL and the bearer token the company's identity provider (Okta,
 * Microsoft Entra, ...) uses to add, change and deactivate people. The token is shown once,
 * when it is created or replaced; it can be revoked.
 */
export function ScimSettings({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const queryKey = scimStatusQueryKey(companyId)
  const status = useQuery({ queryKey, queryFn: () => fetchScimStatus(companyId) })
  const [created, setCreated] = useState<ScimTokenCreated | null>(null)
  const [confirming, setConfirming] = useState<'rotate' | 'revoke' | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)
  const copied = (what: string) => () =>
    toast({ message: `${what} copied.`, severity: 'success', autoDismiss: true })

  const create = useMutation({
    mutationFn: () => scimTokenCreate(companyId),
    onSuccess: async (made) => {
      setCreated(made)
      await queryClient.invalidateQueries({ queryKey })
    },
    onError: (error) => toast({ message: (error as Error).message, severity: 'error' }),
  })
  const revoke = useMutation({
    mutationFn: () => scimTokenRevoke(companyId),
    onSuccess: async () => {
      setCreated(null)
      toast({
        message: 'The SCIM token is revoked: your identity provider can no longer make changes.',
        severity: 'success',
        autoDismiss: true,
      })
      await queryClient.invalidateQueries({ queryKey })
      heading.current?.focus()
    },
    onError: (error) => toast({ message: (error as Error).message, severity: 'error' }),
  })

  const data = status.data
  return (
    <section aria-labelledby="scim-settings" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2
          id="scim-settings"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-ink outline-none"
        >
          Automatic provisioning (SCIM)
        </h2>
        <Paragraph size="sm" tone="muted">
          Connect your identity provider (Okta, Microsoft Entra ID and others) so people are added
          when they join and lose access within seconds when they are deactivated or removed. Use
          the work email as the SCIM userName.
        </Paragraph>
      </div>

      {status.isPending ? (
        <Skeleton height="8rem" className="rounded-2xl" />
      ) : status.isError || !data ? (
        <RetryAlert
          message={status.error?.message ?? 'Something went wrong.'}
          onRetry={() => void status.refetch()}
        />
      ) : (
        <div className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5">
          <CopyField
            id="scim-base-url"
            label="SCIM base URL"
            value={data.base_url}
            onCopied={copied('SCIM base URL')}
          />
          <div className="flex flex-col gap-1" aria-live="polite">
            <p className="text-sm font-semibold text-ink">Token</p>
            {data.has_token ? (
              <Paragraph size="sm">
                Active since {formatWhen(data.created_at ?? '')} · last used{' '}
                {data.last_used_at ? formatWhen(data.last_used_at) : 'not yet'}
              </Paragraph>
            ) : (
              <Paragraph size="sm" tone="muted">
                No token: provisioning is off.
              </Paragraph>
            )}
          </div>

          {created ? (
            <div className="flex flex-col gap-2 rounded-2xl border border-primary-200 bg-primary-50 p-4">
              <CopyField
                key={created.created_at}
                id="scim-new-token"
                label="Your new SCIM token"
                value={created.token}
                note="Copy it now into your identity provider (HTTP header, Bearer token): it is shown only this once."
                autoFocus
                onCopied={copied('SCIM token')}
              />
            </div>
          ) : null}

          <div className="flex flex-col gap-2 sm:flex-row">
            {data.has_token ? (
              <>
                <Button
                  variant="secondary"
                  icon={<RefreshCw />}
                  loading={create.isPending}
                  onClick={() => setConfirming('rotate')}
                >
                  Replace token
                </Button>
                <Button
                  variant="danger"
                  icon={<ShieldOff />}
                  loading={revoke.isPending}
                  onClick={() => setConfirming('revoke')}
                >
                  Revoke token
                </Button>
              </>
            ) : (
              <Button
                icon={<KeyRound />}
                loading={create.isPending}
                onClick={() => create.mutate()}
                className="self-start"
              >
                Create SCIM token
              </Button>
            )}
          </div>
        </div>
      )}

      <ConfirmDialog
        isOpen={confirming !== null}
        message={confirming === 'revoke' ? 'Revoke the SCIM token?' : 'Replace the SCIM token?'}
        description={
          confirming === 'revoke'
            ? 'Your identity provider can no longer add, change or deactivate people. People who have access keep it.'
            : 'The current token stops working at once: put the new one into your identity provider.'
        }
        confirmLabel={confirming === 'revoke' ? 'Revoke token' : 'Replace token'}
        cancelLabel="Keep it"
        destructive
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming === 'revoke') revoke.mutate()
          else create.mutate()
          setConfirming(null)
        }}
      />
    </section>
  )
}
