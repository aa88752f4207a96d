"""What the apps' Django admin pages share."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.forms import BaseFormSet, Form
from django.http import HttpRequest


class LabelledTabularInline(admin.TabularInline):
    """A tabular inline whose inputs are named for screen readers. Its table shows each field's
    label once, in the column's header, so no input of a row has a label of its own (axe:
    'Form elements must have labels'): each gets its field's label as `aria-label`, the row's
    Delete box included."""

    def get_formset(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        formset = super().get_formset(request, obj, **kwargs)

        class Labelled(formset):  # type: ignore[misc, valid-type]
            def add_fields(self: BaseFormSet, form: Form, index: int | None) -> None:
                super().add_fields(form, index)  # type: ignore[misc]
                for name, field in form.fields.items():
                    label = str(field.label or name)
                    widget = field.widget
                    while widget is not None:  # a related field's select is wrapped
                        widget.attrs.setdefault("aria-label", label)
                        widget = getattr(widget, "widget", None)

        return Labelled
