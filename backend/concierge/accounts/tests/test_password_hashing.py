"""API speed 'Sign-in': argon2id parameters chosen for 5 sign-ins a second on 2 cores."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import Argon2PasswordHasher as DjangoDefault
from django.contrib.auth.hashers import make_password

from concierge.accounts.models import User

pytestmark = pytest.mark.django_db

HASHERS = ["concierge.accounts.hashers.Argon2PasswordHasher"]


def test_new_passwords_use_the_chosen_argon2_parameters(settings):
    settings.PASSWORD_HASHERS = HASHERS
    encoded = make_password("correct-horse-battery-42")
    assert encoded.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")


def test_a_hash_with_the_old_parameters_still_signs_in_and_is_upgraded(settings, api, user):
    settings.PASSWORD_HASHERS = [*HASHERS, "django.contrib.auth.hashers.MD5PasswordHasher"]
    old = DjangoDefault().encode("correct-horse-battery-42", DjangoDefault().salt())
    User.objects.filter(pk=user.pk).update(password=old)
    assert api.sign_in(user.email).status_code == 200
    user.refresh_from_db()
    assert user.password.startswith("argon2$argon2id$v=19$m=19456,t=2,p=1$")
