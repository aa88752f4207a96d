/**
 * The signed-in session (spec §3 Session, §4 Authentication): token, expiry and MFA token in
 * local storage; the MFA flags with it; the return target in session storage.
 */
import { useSyncExternalStore } from 'react'

const TOKEN_KEY = 'session.token'
const EXPIRES_KEY = 'session.tokenExpiresAt'
const MFA_TOKEN_KEY = 'session.mfaToken'
const MFA_REQUIRED_KEY = 'session.mfaRequired'
const MFA_ENROLLMENT_KEY = 'session.mfaEnrollmentAvailable'
const RETURN_TARGET_KEY = 'returnTarget'

export interface SessionState {
  token: string | null
  tokenExpiresAt: number | null
  mfaToken: string | null
  mfaRequired: boolean
  mfaEnrollmentAvailable: boolean
}

const listeners = new Set<() => void>()
let snapshot: SessionState = read()

function read(): SessionState {
  const expires = window.localStorage.getItem(EXPIRES_KEY)
  return {
    token: window.localStorage.getItem(TOKEN_KEY),
    tokenExpiresAt: expires ? Number(expires) : null,
    mfaToken: window.localStorage.getItem(MFA_TOKEN_KEY),
    mfaRequired: window.localStorage.getItem(MFA_REQUIRED_KEY) === 'true',
    mfaEnrollmentAvailable: window.localStorage.getItem(MFA_ENROLLMENT_KEY) === 'true',
  }
}

function write(key: string, value: string | null) {
  if (value === null) window.localStorage.removeItem(key)
  else window.localStorage.setItem(key, value)
}

function emit() {
  snapshot = read()
  for (const listener of listeners) listener()
}

export const session = {
  get: (): SessionState => snapshot,
  subscribe(listener: () => void) {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  /** Authenticated means a token exists and its expiry is in the future. */
  isAuthenticated(state: SessionState = snapshot): boolean {
    return Boolean(state.token && state.tokenExpiresAt && state.tokenExpiresAt > Date.now())
  },
  start(token: string, expiresAt: string) {
    write(TOKEN_KEY, token)
    write(EXPIRES_KEY, String(new Date(expiresAt).getTime()))
    write(MFA_TOKEN_KEY, null)
    emit()
  },
  setMfaToken(token: string) {
    write(MFA_TOKEN_KEY, token)
    write(MFA_REQUIRED_KEY, null)
    write(MFA_ENROLLMENT_KEY, null)
    emit()
  },
  setMfaRequired(required: boolean) {
    write(MFA_REQUIRED_KEY, required ? 'true' : null)
    emit()
  },
  setMfaEnrollmentAvailable(available: boolean) {
    write(MFA_ENROLLMENT_KEY, available ? 'true' : null)
    emit()
  },
  /** Sign-out clears all local storage (spec §4). */
  clear() {
    window.localStorage.clear()
    emit()
  },
  /** Re-reads storage, e.g. after another tab signed in or out. */
  refresh: emit,
}

window.addEventListener('storage', () => emit())

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.get, session.get)
}

export const returnTarget = {
  save(path: string) {
    if (path === '/' || path.startsWith('/sign-in')) return
    window.sessionStorage.setItem(RETURN_TARGET_KEY, path)
  },
  peek(): string | null {
    return window.sessionStorage.getItem(RETURN_TARGET_KEY)
  },
  take(): string | null {
    const target = window.sessionStorage.getItem(RETURN_TARGET_KEY)
    window.sessionStorage.removeItem(RETURN_TARGET_KEY)
    return target
  },
}
