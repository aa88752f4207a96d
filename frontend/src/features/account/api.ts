/** The Account page's changes to the account: name, email (confirmed by an emailed link),
 * password, the name of a sign-in method, and the devices signed in. */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, fieldErrors, type Schemas } from '@/api/client'
import type { FreshCheck } from '@/features/mfa'

/** A change's outcome: its value, or the server's message and its messages by field. */
export type Saved<T = undefined> =
  | { ok: true; value: T }
  | { ok: false; error: string; fields: Record<string, string[]> }

function failed(error: unknown, response: Response): Saved<never> {
  return { ok: false, error: errorMessage(error, response), fields: fieldErrors(error) }
}

function proof(check: FreshCheck) {
  return { password: check.password ?? '', code: check.code ?? '' }
}

export async function nameSave(
  firstName: string,
  lastName: string,
): Promise<Saved<Schemas['CurrentUserOut']>> {
  const { data, error, response } = await api.PUT('/api/v1/users/profile', {
    body: { first_name: firstName, last_name: lastName },
  })
  return data ? { ok: true, value: data } : failed(error, response)
}

/** Sends the confirmation link to `email`; the value is the address it went to. */
export async function emailChangeRequest(email: string, check: FreshCheck): Promise<Saved<string>> {
  const { data, error, response } = await api.POST('/api/v1/users/email_change', {
    body: { email, ...proof(check) },
  })
  return data ? { ok: true, value: data.pending_email } : failed(error, response)
}

export async function emailChangeCancel(): Promise<Saved> {
  const { data, error, response } = await api.DELETE('/api/v1/users/email_change')
  return data ? { ok: true, value: undefined } : failed(error, response)
}

export async function passwordChange(
  newPassword: string,
  confirmation: string,
  check: FreshCheck,
): Promise<Saved> {
  const { data, error, response } = await api.POST('/api/v1/users/password/change', {
    body: {
      new_password: newPassword,
      new_password_confirmation: confirmation,
      ...proof(check),
    },
  })
  return data ? { ok: true, value: undefined } : failed(error, response)
}

export async function factorRename(factorId: string, name: string): Promise<Saved> {
  const { data, error, response } = await api.PATCH('/api/v1/mfa/factors/{factor_id}', {
    params: { path: { factor_id: factorId } },
    body: { name },
  })
  return data ? { ok: true, value: undefined } : failed(error, response)
}

export type SignedInDevice = Schemas['SignedInDeviceOut']

/** The devices signed in to the account now, newest first, this one marked `current`. */
export const signedInDevicesQuery = queryOptions({
  queryKey: ['account', 'devices'],
  queryFn: async () => {
    const { data, error, response } = await api.GET('/api/v1/users/devices')
    if (!data) throw new Error(errorMessage(error, response))
    return data.devices
  },
})

export async function deviceSignOut(deviceId: number): Promise<Saved> {
  const { data, error, response } = await api.DELETE('/api/v1/users/devices/{device_id}', {
    params: { path: { device_id: deviceId } },
  })
  return data ? { ok: true, value: undefined } : failed(error, response)
}

/** Signs every device but this one out; the value is how many were. */
export async function otherDevicesSignOut(): Promise<Saved<number>> {
  const { data, error, response } = await api.DELETE('/api/v1/users/devices')
  return data ? { ok: true, value: data.signed_out } : failed(error, response)
}
