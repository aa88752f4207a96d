"""The Django admin, signed in through the API's rules: the same rate limit, lockout
(ACCOUNT_LOCKED only for the right password) and second factor by SMS."""

from __future__ import annotations

import time

from django import forms
from django.conf import settings
from django.contrib import admin
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

from concierge.accounts import mfa_services, services
from concierge.accounts.mfa_selectors import user_has_mfa_factor
from concierge.accounts.models import User
from concierge.accounts.selectors import user_mfa_required
from concierge.common.errors import ApiError
from concierge.common.ratelimit import rate_limit

PENDING_KEY = "admin_mfa_pending"
ENROL_FIRST = "Your account needs a second factor: enrol your phone in the app first."


class AdminSignInForm(AdminAuthenticationForm):
    """Email and password checked by the API's sign-in service, not ModelBackend."""

    def clean(self):  # type: ignore[no-untyped-def]
        email = self.cleaned_data.get("username") or ""
        password = self.cleaned_data.get("password") or ""
        if not (email and password):
            return self.cleaned_data
        if self.request is None:
            raise ValidationError(services.INVALID_CREDENTIALS)
        try:
            rate_limit(self.request, "sign_in")
            user = services.user_credentials_check(email=email, password=password)
        except ApiError as exc:
            raise ValidationError(exc.message) from exc
        self.confirm_login_allowed(user)
        self.user_cache = user
        return self.cleaned_data


class AdminCodeForm(forms.Form):
    otp = forms.CharField(label="Verification code", max_length=20, min_length=6)


class ConciergeAdminSite(admin.AdminSite):
    @method_decorator(csrf_protect)
    @method_decorator(never_cache)
    def login(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        if request.method == "GET" and self.has_permission(request):
            return HttpResponseRedirect(reverse("admin:index", current_app=self.name))
        pending = _pending_user(request)
        if pending is not None and "otp" in request.POST:
            return self._code_step(request, pending)
        form = AdminSignInForm(request, data=request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            user = form.get_user()
            has_factor = user_has_mfa_factor(user=user)
            if user.mfa_phone or has_factor:
                if not has_factor:
                    services.otp_resend(user=user)
                request.session[PENDING_KEY] = {"user_id": user.pk, "at": time.time()}
                return self._render_code(request, AdminCodeForm())
            if user_mfa_required(user=user):
                form.add_error(None, ENROL_FIRST)
            else:
                return self._signed_in(request, user)
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

    def _code_step(self, request: HttpRequest, user: User) -> HttpResponse:
        form = AdminCodeForm(request.POST)
        if form.is_valid():
            try:
                rate_limit(request, "otp")
                mfa_services.user_code_verify(user=user, code=form.cleaned_data["otp"])
            except ApiError as exc:
                form.add_error("otp", exc.message)
            else:
                del request.session[PENDING_KEY]
                return self._signed_in(request, user)
        return self._render_code(request, form)

    def _render_code(self, request: HttpRequest, form: AdminCodeForm) -> HttpResponse:
        context = {**self.each_context(request), "title": "Verification code", "form": form}
        request.current_app = self.name
        return render(request, "admin/login_code.html", context)

    def _signed_in(self, request: HttpRequest, user: User) -> HttpResponse:
        auth_login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        target = request.POST.get("next") or request.GET.get("next") or ""
        if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
            target = reverse("admin:index", current_app=self.name)
        return HttpResponseRedirect(target)


def _pending_user(request: HttpRequest) -> User | None:
    pending = request.session.get(PENDING_KEY)
    if not pending or time.time() - pending["at"] > settings.OTP_TTL_SECONDS:
        return None
    return User.objects.filter(pk=pending["user_id"], is_active=True, is_staff=True).first()
