"""The background task that builds a 'Download my data' zip and emails its link."""

from __future__ import annotations

from django_tasks import task

from concierge.privacy.export_build import data_export_build


@task()
def data_export_build_task(*, export_id: int) -> str:
    return data_export_build(export_id=export_id)
