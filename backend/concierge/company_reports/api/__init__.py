"""The company admin's API under /api/v1/company/: the report (aggregates only) and the
members page (people, invite links). Every endpoint checks the company admin role for the
company it names: another company's id answers 404."""

from __future__ import annotations

from ninja import Router

from concierge.company_reports.api import members, report

router = Router()
router.add_router("", report.router)
router.add_router("", members.router)
