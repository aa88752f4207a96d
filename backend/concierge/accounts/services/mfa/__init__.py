"""Writes of second factors: text-message codes (`sms`), authenticator apps (`totp`, RFC 6238),
passkeys (`passkeys`, WebAuthn) and recovery codes (`recovery_codes`); `factors` is what they
share, `fresh_check` the changes that need a fresh proof. Every factor ends the MFA step the
same way: the session gets an MFA token (`tokens.auth_token_mfa_verified`)."""
