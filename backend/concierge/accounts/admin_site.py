"""The Django admin's sign-in: the password through the API's rate limit and lockout, then a
second factor checked by the same services as the app's MFA step (a passkey, an authenticator
app, a text message or a recovery code), so wrong codes are counted the same way. A staff member
without a second factor adds an authenticator app first; until then no admin page opens.

Between the password and the second factor the sign-in is an API session that is never handed
out: the MFA services count wrong codes on it (five void it, the password is needed again) and
per account and hour. It is revoked when the admin's own session starts."""

from __future__ import annotations

import json
import time
from typing import Any, cast

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import login as auth_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_protect

from concierge.accounts.models import AuthToken, MfaFactor, User
from concierge.accounts.selectors import mfa as mfa_selectors
from concierge.accounts.services import identity, tokens
from concierge.accounts.services.mfa import factors, passkeys, recovery_codes, sms, totp
from concierge.common.errors import ApiError
from concierge.common.ratelimit import rate_limit

PENDING_KEY = "admin_mfa_pending"
PASSKEY = MfaFactor.Kind.PASSKEY.value
TOTP = MfaFactor.Kind.TOTP.value
SMS = mfa_selectors.SMS
RECOVERY = mfa_selectors.RECOVERY
STEP_EXPIRED = "Your sign-in took too long. Please sign in again."
CODE_STEP_FIELDS = {"otp", "credential", "send_sms"}
ENROL_STEP_FIELDS = {"enrol_code", "enrol_restart"}
MAX_CREDENTIAL_CHARS = 20_000


class AdminSignInForm(AdminAuthenticationForm):
    """Email and password checked by the API's sign-in service, not ModelBackend."""

    def clean(self):  # type: ignore[no-untyped-def]
        email = self.cleaned_data.get("username") or ""
        password = self.cleaned_data.get("password") or ""
        if not (email and password):
            return self.cleaned_data
        if self.request is None:
            raise ValidationError(identity.INVALID_CREDENTIALS)
        try:
            rate_limit(self.request, "sign_in")
            user = identity.user_credentials_check(email=email, password=password)
        except ApiError as exc:
            raise ValidationError(exc.message) from exc
        self.confirm_login_allowed(user)
        self.user_cache = user
        return self.cleaned_data


class AdminCodeForm(forms.Form):
    """A code from one of the user's factors. Without a chosen method its shape decides: six
    digits are the authenticator app's (the text's when there is no app), else a recovery code."""

    method = forms.ChoiceField(label="Sign in with", required=False, widget=forms.RadioSelect)
    otp = forms.CharField(label="Code", max_length=20, min_length=6)

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["method"]).choices = choices
        self.offered = [value for value, _ in choices]
        if choices and "method" not in self.initial:
            self.initial["method"] = choices[0][0]

    def clean_otp(self) -> str:
        return "".join(self.cleaned_data["otp"].split())

    def chosen_method(self) -> str:
        if method := self.cleaned_data.get("method"):
            return str(method)
        code = self.cleaned_data["otp"]
        if code.isdigit() and len(code) == totp.TOTP_DIGITS:
            return SMS if SMS in self.offered and TOTP not in self.offered else TOTP
        return RECOVERY


class AdminEnrolForm(forms.Form):
    enrol_code = forms.CharField(label="Code from the app", max_length=10, min_length=6)


class ConciergeAdminSite(admin.AdminSite):
    @method_decorator(csrf_protect)
    @method_decorator(never_cache)
    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        if request.method == "POST" and (CODE_STEP_FIELDS | ENROL_STEP_FIELDS) & set(request.POST):
            auth_token = _pending_session(request)
            if auth_token is None:
                return _start_again(request, STEP_EXPIRED)
            if ENROL_STEP_FIELDS & set(request.POST):
                return self._enrol_step(request, auth_token)
            return self._code_step(request, auth_token)
        form = AdminSignInForm(request, data=request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            return self._second_factor_start(request, form.get_user())
        context = {
            **self.each_context(request),
            "title": "Log in",
            "subtitle": None,
            "app_path": request.get_full_path(),
            "username": request.user.get_username(),
            "form": form,
            "next": request.GET.get("next", ""),
            **(extra_context or {}),
        }
        request.current_app = self.name
        return render(request, self.login_template or "admin/login.html", context)

    # ------------------------------------------------------------------ after the password

    def _second_factor_start(self, request: HttpRequest, user: User) -> HttpResponse:
        _pending_end(request)
        _, auth_token = tokens.auth_token_create(user)
        request.session[PENDING_KEY] = {
            "token_id": auth_token.pk,
            "at": time.time(),
            "next": request.POST.get("next") or request.GET.get("next") or "",
        }
        if not mfa_selectors.user_factor_count(user=user):
            return self._enrol_start(request, auth_token)
        notice = ""
        if user.mfa_phone and not mfa_selectors.user_has_mfa_factor(user=user):
            # The phone is the only factor: the code is texted at once, as in the app.
            sms.otp_resend(user=user)
            notice = _texted(user)
        return self._render_code(request, auth_token, notice=notice)

    # ---------------------------------------------------------------- the second factor

    def _code_step(self, request: HttpRequest, auth_token: AuthToken) -> HttpResponse:
        user = auth_token.user
        if "send_sms" in request.POST:
            return self._text_code(request, auth_token)
        if "credential" in request.POST:
            outcome = self._verify(request, auth_token, PASSKEY, request.POST["credential"])
            if isinstance(outcome, HttpResponse):
                return outcome
            return self._render_code(request, auth_token, error=outcome)
        form = AdminCodeForm(request.POST, choices=_code_choices(user))
        if form.is_valid():
            outcome = self._verify(
                request, auth_token, form.chosen_method(), form.cleaned_data["otp"]
            )
            if isinstance(outcome, HttpResponse):
                return outcome
            form.add_error("otp", outcome)
        return self._render_code(request, auth_token, form=form)

    def _verify(
        self, request: HttpRequest, auth_token: AuthToken, method: str, answer: str
    ) -> HttpResponse | str:
        """Signs in when `answer` passes `method`; else the error to show."""
        try:
            rate_limit(request, "otp")
            _factor_check(auth_token=auth_token, method=method, answer=answer)
        except ApiError as exc:
            if exc.message == factors.SESSION_VOIDED:
                return _start_again(request, exc.message)
            return exc.message
        if method == RECOVERY:
            left = mfa_selectors.recovery_codes_left(user=auth_token.user)
            messages.warning(
                request,
                f"You signed in with a recovery code ({left} left). If your authenticator "
                "app or passkey is lost, add a new one on your Account page in the app.",
            )
        return self._signed_in(request, auth_token)

    def _text_code(self, request: HttpRequest, auth_token: AuthToken) -> HttpResponse:
        user = auth_token.user
        if not user.mfa_phone:
            return self._render_code(request, auth_token)
        try:
            rate_limit(request, "otp")
            sms.otp_resend(user=user)
        except ApiError as exc:
            return self._render_code(request, auth_token, error=exc.message)
        return self._render_code(request, auth_token, notice=_texted(user), method=SMS)

    def _render_code(
        self,
        request: HttpRequest,
        auth_token: AuthToken,
        *,
        form: AdminCodeForm | None = None,
        notice: str = "",
        error: str = "",
        method: str = "",
    ) -> HttpResponse:
        user = auth_token.user
        methods = mfa_selectors.user_mfa_methods(user=user)
        choices = _code_choices(user, methods)
        if form is None:
            form = AdminCodeForm(choices=choices, initial={"method": method} if method else {})
        passkey_options = (
            json.loads(passkeys.passkey_mfa_options(auth_token=auth_token))
            if PASSKEY in methods
            else None
        )
        context = {
            **self.each_context(request),
            "title": "Two-step verification",
            "form": form,
            "intro": _code_intro(user, methods),
            "notice": notice,
            "error": error,
            "passkey_options": passkey_options,
            "can_text": SMS in methods,
        }
        request.current_app = self.name
        return render(request, "admin/login_code.html", context)

    # ------------------------------------------------------------ enrolling a first factor

    def _enrol_start(self, request: HttpRequest, auth_token: AuthToken) -> HttpResponse:
        enrolment = totp.totp_enrol_start(user=auth_token.user)
        request.session[PENDING_KEY] = {
            **request.session[PENDING_KEY],
            "factor_id": enrolment.factor_id,
        }
        return self._render_enrol(request, AdminEnrolForm(), enrolment=enrolment)

    def _enrol_step(self, request: HttpRequest, auth_token: AuthToken) -> HttpResponse:
        user = auth_token.user
        if mfa_selectors.user_factor_count(user=user):
            # A factor was added meanwhile (in the app): that factor passes this sign-in.
            return self._render_code(request, auth_token)
        if "enrol_restart" in request.POST:
            return self._enrol_start(request, auth_token)
        form = AdminEnrolForm(request.POST)
        if form.is_valid():
            try:
                rate_limit(request, "otp")
                codes = totp.totp_enrol_confirm(
                    user=user,
                    factor_id=int(request.session[PENDING_KEY].get("factor_id") or 0),
                    code="".join(form.cleaned_data["enrol_code"].split()),
                )
            except ApiError as exc:
                form.add_error("enrol_code", exc.message)
            else:
                # The new app just proved itself with a fresh code: this sign-in has passed.
                signed_in = self._signed_in(request, auth_token)
                if not codes:
                    return signed_in
                return self._render_recovery_codes(request, codes, signed_in["Location"])
        return self._render_enrol(request, form, enrolment=None)

    def _render_enrol(
        self,
        request: HttpRequest,
        form: AdminEnrolForm,
        *,
        enrolment: totp.TotpEnrolment | None,
    ) -> HttpResponse:
        context = {
            **self.each_context(request),
            "title": "Add a second sign-in step",
            "form": form,
            "enrolment": enrolment,
            "account_url": f"{settings.PUBLIC_URL.rstrip('/')}/account",
        }
        request.current_app = self.name
        return render(request, "admin/login_enrol.html", context)

    def _render_recovery_codes(
        self, request: HttpRequest, codes: list[str], next_url: str
    ) -> HttpResponse:
        context = {
            **self.each_context(request),
            "title": "Your recovery codes",
            "codes": codes,
            "next_url": next_url,
        }
        request.current_app = self.name
        return render(request, "admin/login_recovery_codes.html", context)

    # ------------------------------------------------------------------------ signed in

    def _signed_in(self, request: HttpRequest, auth_token: AuthToken) -> HttpResponse:
        pending = request.session.pop(PENDING_KEY, {})
        tokens.auth_token_revoke(auth_token=auth_token)
        auth_login(request, auth_token.user, backend="django.contrib.auth.backends.ModelBackend")
        target = str(pending.get("next") or "")
        if not url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        ):
            target = reverse("admin:index", current_app=self.name)
        return HttpResponseRedirect(target)


def _pending_session(request: HttpRequest) -> AuthToken | None:
    pending = request.session.get(PENDING_KEY)
    if not isinstance(pending, dict) or time.time() - pending["at"] > settings.OTP_TTL_SECONDS:
        return None
    return mfa_selectors.staff_session_at_mfa_step(token_id=pending["token_id"])


def _pending_end(request: HttpRequest) -> None:
    """Drops the sign-in in progress, if any (a new password sign-in replaces it)."""
    pending = request.session.pop(PENDING_KEY, None)
    if isinstance(pending, dict):
        auth_token = mfa_selectors.staff_session_at_mfa_step(token_id=pending["token_id"])
        if auth_token is not None:
            tokens.auth_token_revoke(auth_token=auth_token)


def _start_again(request: HttpRequest, message: str) -> HttpResponse:
    """Back to the password, with `message` shown on the sign-in page."""
    _pending_end(request)
    messages.error(request, message)
    return HttpResponseRedirect(request.get_full_path())


def _factor_check(*, auth_token: AuthToken, method: str, answer: str) -> None:
    """Passes the session's MFA step with `answer` to `method`, or raises (wrong ones counted)."""
    if method == PASSKEY:
        passkeys.mfa_passkey_verify(auth_token=auth_token, credential=_credential(answer))
    elif method == TOTP:
        totp.mfa_totp_verify(auth_token=auth_token, code=answer)
    elif method == SMS:
        sms.mfa_verify(auth_token=auth_token, code=answer)
    else:
        recovery_codes.mfa_recovery_verify(auth_token=auth_token, code=answer)


def _credential(answer: str) -> dict[str, Any]:
    """The browser's passkey answer (JSON); anything else is an empty one, refused and counted."""
    if len(answer) > MAX_CREDENTIAL_CHARS:
        return {}
    try:
        credential = json.loads(answer)
    except ValueError:
        return {}
    return credential if isinstance(credential, dict) else {}


def _code_choices(user: User, methods: list[str] | None = None) -> list[tuple[str, str]]:
    """The factors that take a typed code, strongest first."""
    labels = {
        TOTP: "Authenticator app",
        SMS: f"Text message to {mfa_selectors.phone_hint(user.mfa_phone)}",
        RECOVERY: "Recovery code",
    }
    if methods is None:
        methods = mfa_selectors.user_mfa_methods(user=user)
    return [(method, labels[method]) for method in methods if method in labels]


def _code_intro(user: User, methods: list[str]) -> str:
    parts = {
        TOTP: "the code from your authenticator app",
        SMS: f"the code we text to {mfa_selectors.phone_hint(user.mfa_phone)}",
        RECOVERY: "one of your recovery codes",
    }
    wanted = [parts[method] for method in methods if method in parts]
    if not wanted:
        return ""
    listed = wanted[0] if len(wanted) == 1 else f"{', '.join(wanted[:-1])} or {wanted[-1]}"
    return f"Enter {listed}."


def _texted(user: User) -> str:
    return f"We texted a code to {mfa_selectors.phone_hint(user.mfa_phone)}."
