"""What the apps' Django admin pages share."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import options as admin_options
from django.contrib.admin import widgets as admin_widgets
from django.db import models
from django.forms import BaseFormSet, Form
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.text import capfirst


def breakable(text: str, separator: str = "@", *, before: bool = True) -> SafeString:
    """The text, escaped, with a line break allowed at each separator (before it, or after
    it): an email, an action name or an IPv6 address is one long word that would otherwise
    widen a list's column to its whole length (and push the last columns out of sight)."""
    wbr = format_html("<wbr>{}" if before else "{}<wbr>", separator)
    return format_html_join(wbr, "{}", ((part,) for part in str(text).split(separator)))


class LabelledSplitDateTime(admin_widgets.AdminSplitDateTime):
    """Django admin's date and time inputs for one date-time field, each named for screen
    readers ("Created at: date", "Created at: time"). Django's own show "Date:" and "Time:" as
    bare text and the field's label points at neither input (axe: 'Form elements must have
    labels', `created_at_0`, `created_at_1`). The name is the `aria-label` given to the whole
    widget (a tabular inline's, `LabelledTabularInline`), else its field's label
    (`LabelledSplitDateTimeField` hands it over), else the field's name."""

    label = ""

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        context = super().get_context(name, value, attrs)
        label = str(
            context["widget"]["attrs"].get("aria-label")
            or self.label
            or capfirst(name.rsplit("-", 1)[-1].replace("_", " "))
        )
        for subwidget, part in zip(context["widget"]["subwidgets"], ("date", "time"), strict=True):
            subwidget["attrs"]["aria-label"] = f"{label}: {part}"
        return context


class LabelledSplitDateTimeField(forms.SplitDateTimeField):
    """The admin's date-time form field, whose inputs carry its label (`LabelledSplitDateTime`)."""

    widget = LabelledSplitDateTime

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if isinstance(self.widget, LabelledSplitDateTime) and self.label:
            self.widget.label = str(self.label)


# Every model date-time field of every admin form (this project's, and the user admin Django's
# auth admin is made from) gets the labelled inputs. Django copies this table into each
# ModelAdmin when it is registered; apps' admin modules are imported after this one
# (concierge.common comes first in INSTALLED_APPS, and they import it).
admin_options.FORMFIELD_FOR_DBFIELD_DEFAULTS[models.DateTimeField] = {
    "form_class": LabelledSplitDateTimeField,
    "widget": LabelledSplitDateTime,
}


class LabelledTabularInline(admin.TabularInline):
    """A tabular inline whose inputs are named for screen readers. Its table shows each field's
    label once, in the column's header, so no input of a row has a label of its own (axe:
    'Form elements must have labels'): each gets its field's label as `aria-label`, the row's
    Delete box included (a date-time field's two inputs: "<label>: date" and "<label>: time")."""

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
