"""Upload reads."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from concierge.accounts.selectors.concierges import user_is_concierge
from concierge.common.errors import NotFound
from concierge.uploads.models import Upload

if TYPE_CHECKING:
    from concierge.accounts.models import User

# Whether a user may attach files to a request is the requests app's rule. It registers the
# rule here when Django starts (`ServiceRequestsConfig.ready`), so uploads never imports the
# app that builds on it.
_request_attachable: Callable[[User, int], bool] | None = None


def request_attachable_register(rule: Callable[[User, int], bool]) -> None:
    global _request_attachable
    _request_attachable = rule


def request_attachable_require(*, user: User, request_id: int) -> None:
    """NotFound unless `user` may attach files to request `request_id`."""
    if _request_attachable is None or not _request_attachable(user, request_id):
        raise NotFound()


def upload_get_for_download(*, user: User, key: str) -> Upload:
    """An upload `user` may download, else NotFound (never a hint that the key exists).

    Allowed: the uploader; for a message attachment, the request's owner; concierges (staff
    who work every request, including the files given as survey answers).
    """
    upload = Upload.objects.select_related("request").filter(key=key).first()
    if upload is None:
        raise NotFound()
    if upload.owner_id == user.pk or user_is_concierge(user=user):
        return upload
    if upload.request is not None and upload.request.user_id == user.pk:
        return upload
    raise NotFound()


def upload_get_for_owner(*, owner: User, key: str) -> Upload | None:
    return Upload.objects.filter(key=key, owner=owner).first()
