/** The Account page's changes to the account: name, email (confirmed by an emailed link),
 * password, and the name of a sign-in method. */
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
