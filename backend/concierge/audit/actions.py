"""The audit trail's actions: dotted names, "area.object.what_happened".

Record them with `concierge.audit.services.audit_record(action=...)`. Details never hold a
password, token, code or message text.
"""

from __future__ import annotations

# Sign-in and the account's security.
SIGN_IN_SUCCEEDED = "auth.sign_in.succeeded"
SIGN_IN_FAILED = "auth.sign_in.failed"
ACCOUNT_LOCKED = "auth.account.locked"
ACCOUNT_UNLOCKED = "auth.account.unlocked"
MFA_FACTOR_ADDED = "auth.mfa.added"
MFA_FACTOR_REMOVED = "auth.mfa.removed"
PASSWORD_CHANGED = "auth.password.changed"
PASSWORD_RESET = "auth.password.reset"
SESSIONS_REVOKED = "auth.sessions.revoked"

# Openings by the concierge side (one per person, object and kind per AUDIT_OPENING_WINDOW_SECONDS).
REQUEST_OPENED = "request.opened"
THREAD_OPENED = "request.thread.opened"
ATTACHMENT_OPENED = "request.attachment.opened"
PROFILE_OPENED = "employee.profile.opened"
OPENINGS = (REQUEST_OPENED, THREAD_OPENED, ATTACHMENT_OPENED, PROFILE_OPENED)

# Work on a request.
REPLY_SENT = "request.reply.sent"
NOTE_ADDED = "request.note.added"
STATUS_CHANGED = "request.status.changed"
ASSIGNMENT_CHANGED = "request.assignment.changed"

# Django admin.
ADMIN_ADDED = "admin.object.added"
ADMIN_CHANGED = "admin.object.changed"
ADMIN_DELETED = "admin.object.deleted"

# The company's own administration (what its company admins see).
REPORT_VIEWED = "company.report.viewed"
REPORT_EXPORTED = "company.report.exported"
MEMBER_DEACTIVATED = "company.member.deactivated"
MEMBER_REACTIVATED = "company.member.reactivated"
INVITE_SENT = "company.invite.sent"
INVITE_REVOKED = "company.invite.revoked"
SCIM_TOKEN_CHANGED = "company.scim_token.changed"
ROSTER_IMPORTED = "company.roster.imported"
SSO_SETTINGS_CHANGED = "company.sso.changed"
COMPANY_SETTINGS_CHANGED = "company.settings.changed"

# Roles.
ROLE_CHANGED = "role.changed"
# The role of someone acting as their company's admin (members page, roster, SCIM token).
COMPANY_ADMIN_ROLE = "company admin"

# The employee's data.
DATA_EXPORTED = "data.exported"
DATA_EXPORT_REQUESTED = "data.export.requested"
DATA_EXPORT_DOWNLOADED = "data.export.downloaded"
ACCOUNT_ERASED = "account.erased"
RETENTION_RUN = "retention.run"

# The log itself.
AUDIT_PRUNED = "audit.pruned"

# What a company admin sees of their company's log: its administration, never request
# activity (REQUEST_*, THREAD_*, ...) nor an employee's own sign-ins.
COMPANY_ADMIN_VISIBLE = (
    REPORT_VIEWED,
    REPORT_EXPORTED,
    MEMBER_DEACTIVATED,
    MEMBER_REACTIVATED,
    INVITE_SENT,
    INVITE_REVOKED,
    SCIM_TOKEN_CHANGED,
    ROSTER_IMPORTED,
    SSO_SETTINGS_CHANGED,
    COMPANY_SETTINGS_CHANGED,
    ROLE_CHANGED,
)
