"""`manage.py seed_demo`: demo companies, accounts, request surveys and benefits & offers.

Idempotent: every row is keyed on a natural key (slug, email, name, position), so running it
again changes nothing and creates no duplicates. The accounts' password comes from DEMO_PASSWORD.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import Group, Permission
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management.base import BaseCommand, CommandError
from django.core.management.color import no_style
from django.db import connection, transaction
from django.db.models.fields.files import FieldFile
from django.utils import timezone

from concierge.accounts.models import Company, OnboardingAnswer, User
from concierge.accounts.selectors import CONCIERGE_GROUP
from concierge.common.validation import PASSWORD_MAX, PASSWORD_MIN
from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

# --------------------------------------------------------------------------- companies and people

COMPANIES = [
    # slug, name, requires_mfa
    ("acme", "Acme Corp", False),
    ("globex", "Globex", True),
    ("concierge-hq", "Concierge HQ", False),
]


@dataclass(frozen=True)
class DemoUser:
    email: str
    first_name: str
    last_name: str
    companies: tuple[str, ...]
    role: str
    onboarded: bool = True
    is_staff: bool = False
    is_superuser: bool = False
    groups: tuple[str, ...] = ()
    onboarding_answers: dict[int, Any] = field(default_factory=dict)


USERS = [
    DemoUser(
        email="demo@example.com",
        first_name="Dana",
        last_name="Demo",
        companies=("acme",),
        role="employee of Acme Corp (onboarded; pet owner, parent, home owner)",
        onboarding_answers={
            132: True,  # home owner
            134: False,  # car
            121: True,  # parent
            122: True,  # pet
            120: True,  # partner
            104: "(555) 010-2030",
            165: "demo@example.com",
        },
    ),
    DemoUser(
        email="globex@example.com",
        first_name="Gina",
        last_name="Globex",
        companies=("globex",),
        role="employee of Globex (company requires MFA, no phone yet: enrols at first sign-in)",
        onboarded=False,
    ),
    DemoUser(
        email="concierge@example.com",
        first_name="Casey",
        last_name="Concierge",
        companies=("concierge-hq",),
        role="concierge (group Concierges, staff)",
        is_staff=True,
        groups=(CONCIERGE_GROUP,),
    ),
    DemoUser(
        email="admin@example.com",
        first_name="Avery",
        last_name="Admin",
        companies=("concierge-hq",),
        role="administrator (superuser, Django admin at /admin/)",
        is_staff=True,
        is_superuser=True,
    ),
]

# --------------------------------------------------------------------------- request surveys

INTRO_SURVEY_ID = 603
BENEFITS_SURVEY_ID = 720
PHONE, EMAIL, ADDRESS_LINE_1 = 104, 165, 148
INPUT = Question.InputType


def text(label: str, *, optional: bool = False, universal: int | None = None, **kw: Any) -> dict:
    return {"label": label, "type": INPUT.TEXT, "optional": optional, "universal": universal, **kw}


def multiline(label: str, *, optional: bool = False, **kw: Any) -> dict:
    return {"label": label, "type": INPUT.MULTILINE_TEXT, "optional": optional, **kw}


def phone(label: str = "What's the best phone number to reach you?") -> dict:
    return {"label": label, "type": INPUT.PHONE_NUMBER, "universal": PHONE}


def email(label: str = "Which email should we send updates to?") -> dict:
    return {"label": label, "type": INPUT.MANAGED_EMAIL, "universal": EMAIL}


def upload(label: str, *, optional: bool = True) -> dict:
    return {"label": label, "type": INPUT.SINGLE_UPLOAD, "optional": optional}


def select(label: str, options: list[str | tuple[str, str]], **kw: Any) -> dict:
    pairs = [o if isinstance(o, tuple) else (o, _value(o)) for o in options]
    return {"label": label, "type": INPUT.SINGLE_SELECT, "options": pairs, **kw}


def _value(label: str) -> str:
    cleaned = "".join(ch if ch.isalnum() else "_" for ch in label.lower())
    return "_".join(part for part in cleaned.split("_") if part)[:60]


SURVEY_CATEGORIES = [
    # key, name, icon, recommended
    ("home", "Home", SurveyCategory.Icon.HOME, True),
    ("moving", "Moving", SurveyCategory.Icon.HOME_MOVING, True),
    ("pet", "Pet", SurveyCategory.Icon.PET, True),
    ("family", "Family", SurveyCategory.Icon.FAMILY, True),
    ("car", "Car", SurveyCategory.Icon.CAR, False),
    ("finances", "Finances", SurveyCategory.Icon.FINANCES, False),
    ("travel", "Travel", SurveyCategory.Icon.TRAVEL, False),
    ("health", "Health & Benefits", SurveyCategory.Icon.MEDICAL, True),
    ("other", "Something else", SurveyCategory.Icon.WILDCARD, False),
]


@dataclass(frozen=True)
class DemoSurvey:
    """A request survey; a question's `show_if=(n, value)` asks it only when question n
    (1-based) was answered with `value`."""

    category: str
    id: int
    slug: str
    name: str
    for_alpha: bool
    description: str
    questions: list[dict]


SURVEYS = [
    DemoSurvey(
        category="home",
        id=610,
        slug="find-house-cleaner",
        name="Find a house cleaner",
        for_alpha=True,
        description="We'll find a vetted, insured cleaner and book the first visit.",
        questions=[
            select(
                "How often would you like a cleaning?",
                ["One-time deep clean", "Every week", "Every two weeks", "Once a month"],
            ),
            select(
                "How big is your home?",
                ["Studio or 1 bedroom", "2 bedrooms", "3 bedrooms", "4 or more bedrooms"],
            ),
            text("Which neighborhood or ZIP code is it in?"),
            multiline(
                "Anything the cleaner should know? Pets, access, rooms to focus on…", optional=True
            ),
            phone(),
        ],
    ),
    DemoSurvey(
        category="home",
        id=611,
        slug="handyman-repairs",
        name="Get a handyman for small repairs",
        for_alpha=True,
        description="Leaky tap, squeaky door, shelves to hang: we'll line up a handyman.",
        questions=[
            multiline("What needs fixing?"),
            upload("Add a photo of the problem"),
            select(
                "How soon do you need it done?", ["This week", "Within two weeks", "I'm flexible"]
            ),
            text("What's the address?", universal=ADDRESS_LINE_1),
            phone(),
        ],
    ),
    DemoSurvey(
        category="home",
        id=612,
        slug="home-internet",
        name="Set up home internet",
        for_alpha=False,
        description="We compare the providers at your address and schedule the installation.",
        questions=[
            text("What's the address?", universal=ADDRESS_LINE_1),
            select(
                "What do you mostly use the internet for?",
                ["Browsing and email", "Streaming", "Working from home", "Gaming"],
            ),
            email(),
        ],
    ),
    DemoSurvey(
        category="moving",
        id=613,
        slug="plan-my-move",
        name="Plan my move",
        for_alpha=True,
        description="Movers, packing, and a checklist so nothing is forgotten.",
        questions=[
            text("Where are you moving from?"),
            text("Where are you moving to?"),
            text("When is your move date?"),
            select(
                "Do you need help packing?",
                [("Yes, please", "yes"), ("No, we'll pack ourselves", "no")],
            ),
            select(
                "How many rooms need packing?",
                ["1 to 2", "3 to 4", "5 or more"],
                show_if=(4, "yes"),
            ),
            multiline("Any large or fragile items? Piano, artwork, antiques…", optional=True),
            phone(),
        ],
    ),
    DemoSurvey(
        category="moving",
        id=614,
        slug="moving-utilities",
        name="Set up utilities at my new place",
        for_alpha=True,
        description="Power, gas, water and internet on from day one.",
        questions=[
            text("What's your new address?"),
            text("When do you move in?"),
            select(
                "Which services do you need?",
                ["Electricity and gas", "Internet", "Water and trash", "All of the above"],
            ),
            email(),
        ],
    ),
    DemoSurvey(
        category="moving",
        id=615,
        slug="storage-unit",
        name="Find a storage unit",
        for_alpha=False,
        description="A clean, secure unit near you, at the right size.",
        questions=[
            select(
                "What size do you need?",
                ["Small (5×5 ft)", "Medium (10×10 ft)", "Large (10×20 ft)"],
            ),
            text("Near which neighborhood or ZIP code?"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="pet",
        id=616,
        slug="find-dog-walker",
        name="Find a dog walker",
        for_alpha=True,
        description="A reliable, background-checked walker on your schedule.",
        questions=[
            select(
                "How big is your dog?",
                ["Small (under 20 lb)", "Medium (20 to 50 lb)", "Large (over 50 lb)"],
            ),
            select(
                "How often do you need walks?",
                ["Every weekday", "A few times a week", "Occasionally"],
            ),
            text("Which neighborhood do you live in?"),
            multiline(
                "Tell us about your dog: name, temperament, anything the walker should know",
                optional=True,
            ),
            upload("Add a photo of your dog"),
            phone(),
            email(),
        ],
    ),
    DemoSurvey(
        category="pet",
        id=617,
        slug="vet-appointment",
        name="Book a vet appointment",
        for_alpha=True,
        description="We find a nearby vet with availability and book the visit.",
        questions=[
            select("What kind of pet is it?", ["Dog", "Cat", ("Another animal", "other")]),
            text("What kind of animal is it?", show_if=(1, "other")),
            select(
                "What's the visit for?",
                ["Check-up or vaccines", "Illness or injury", "Dental cleaning", "Something else"],
            ),
            multiline("Describe any symptoms or concerns", optional=True),
            text("Which days and times work for you?"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="pet",
        id=618,
        slug="pet-sitter",
        name="Find a pet sitter while I travel",
        for_alpha=True,
        description="Someone trustworthy to care for your pet while you're away.",
        questions=[
            text("What dates will you be away?"),
            select(
                "Where should the sitter care for your pet?",
                ["At my home", "At the sitter's home", "Either is fine"],
            ),
            multiline("Feeding, medication and routine notes", optional=True),
            phone(),
        ],
    ),
    DemoSurvey(
        category="family",
        id=619,
        slug="find-babysitter",
        name="Find a babysitter",
        for_alpha=True,
        description="Experienced, CPR-certified sitters for date night or every week.",
        questions=[
            text("When do you need a babysitter?"),
            select("How many children?", ["1", "2", "3 or more"]),
            text("How old are they?"),
            multiline(
                "Anything the sitter should know? Allergies, bedtime routine…", optional=True
            ),
            phone(),
        ],
    ),
    DemoSurvey(
        category="family",
        id=620,
        slug="summer-camps",
        name="Research summer camps",
        for_alpha=True,
        description="A shortlist of camps that fit your child, dates and budget.",
        questions=[
            text("How old is your child?"),
            select("Day camp or overnight camp?", ["Day camp", "Overnight camp", "Open to both"]),
            text("What's your budget per week?", optional=True),
            multiline("What are they into? Sports, arts, science…", optional=True),
            email(),
        ],
    ),
    DemoSurvey(
        category="family",
        id=621,
        slug="birthday-party",
        name="Plan a birthday party",
        for_alpha=False,
        description="Venue, cake and entertainment, sorted.",
        questions=[
            text("Who is the party for, and how old will they be?"),
            text("What date, and how many guests?"),
            multiline("Any theme or ideas?", optional=True),
            email(),
        ],
    ),
    DemoSurvey(
        category="car",
        id=622,
        slug="car-service",
        name="Get my car serviced",
        for_alpha=True,
        description="We book a trusted shop and confirm the price up front.",
        questions=[
            text("What's the make, model and year?"),
            select(
                "What does it need?",
                [
                    "Oil change and routine service",
                    "A warning light is on",
                    "Tires or brakes",
                    ("Something else", "other"),
                ],
            ),
            multiline("Tell us what's going on", show_if=(2, "other")),
            text("Which days work for a drop-off?"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="car",
        id=623,
        slug="vehicle-registration",
        name="Renew my vehicle registration",
        for_alpha=True,
        description="We handle the DMV paperwork and remind you next year.",
        questions=[
            text("Which state is the car registered in?"),
            text("What's the license plate number?"),
            upload("Upload your renewal notice"),
            email(),
        ],
    ),
    DemoSurvey(
        category="finances",
        id=624,
        slug="dispute-charge",
        name="Dispute a bill or charge",
        for_alpha=True,
        description="We call the company for you and follow up until it's fixed.",
        questions=[
            text("Which company charged you?"),
            text("How much was the charge, and when?"),
            multiline("What went wrong?"),
            upload("Upload the bill or statement"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="finances",
        id=625,
        slug="compare-insurance",
        name="Compare insurance quotes",
        for_alpha=True,
        description="Side-by-side quotes so you can pick with confidence.",
        questions=[
            select("What kind of insurance?", ["Auto", "Home", "Renters", "Life", "Pet"]),
            multiline("What do you have today, and what would you like to change?", optional=True),
            email(),
        ],
    ),
    DemoSurvey(
        category="finances",
        id=626,
        slug="tax-documents",
        name="Organize my tax documents",
        for_alpha=False,
        description="A checklist of the documents you need and a place to keep them.",
        questions=[
            multiline("Which documents do you have so far?"),
            upload("Upload a document to start with"),
            email(),
        ],
    ),
    DemoSurvey(
        category="travel",
        id=627,
        slug="weekend-getaway",
        name="Plan a weekend getaway",
        for_alpha=True,
        description="A ready-to-book plan: where to stay, what to do, where to eat.",
        questions=[
            text("Where are you leaving from?"),
            text("Which dates?"),
            select("What kind of trip?", ["Relaxing", "Outdoors", "City break", "Surprise me"]),
            text("What's your budget?", optional=True),
            email(),
        ],
    ),
    DemoSurvey(
        category="travel",
        id=628,
        slug="passport-renewal",
        name="Renew my passport",
        for_alpha=True,
        description="Forms, photos and appointments, step by step.",
        questions=[
            select(
                "Your current passport is…",
                [
                    "Still valid",
                    "Expired less than 5 years ago",
                    "Expired more than 5 years ago",
                    "Lost or stolen",
                ],
            ),
            text("When is your next international trip?", optional=True),
            phone(),
        ],
    ),
    DemoSurvey(
        category="health",
        id=BENEFITS_SURVEY_ID,
        slug="help-with-benefits",
        name="Help me with my benefits",
        for_alpha=True,
        description="Enrolment, claims, coverage questions: we'll sort it out with your provider.",
        questions=[
            select(
                "Which benefit do you need help with?",
                [
                    ("Medical insurance", "medical"),
                    ("Dental or vision", "dental_vision"),
                    ("Retirement savings / 401(k)", "retirement"),
                    ("Child care", "child_care"),
                    ("Something else", "other"),
                ],
            ),
            text("Which benefit is it?", show_if=(1, "other")),
            multiline("What would you like us to do?"),
            upload("Upload any letter, bill or form you received"),
            email(),
        ],
    ),
    DemoSurvey(
        category="health",
        id=629,
        slug="in-network-doctor",
        name="Find an in-network doctor",
        for_alpha=True,
        description="Doctors covered by your plan who are taking new patients.",
        questions=[
            select(
                "What kind of doctor?",
                ["Primary care", "Pediatrician", "Dermatologist", "Another specialist"],
            ),
            text("Which insurance plan do you have?"),
            text("Near which ZIP code?"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="health",
        id=630,
        slug="review-medical-bill",
        name="Review a medical bill",
        for_alpha=True,
        description="We check the bill against your coverage and dispute errors.",
        questions=[
            upload("Upload the bill", optional=False),
            multiline("What looks wrong?"),
            phone(),
        ],
    ),
    DemoSurvey(
        category="other",
        id=INTRO_SURVEY_ID,
        slug="intro",
        name="Tell us what you need",
        for_alpha=True,
        description="Anything at all: describe it and your concierge takes it from there.",
        questions=[
            multiline("What can we help you with?"),
            text("When do you need it done by?", optional=True),
            phone(),
        ],
    ),
    DemoSurvey(
        category="other",
        id=631,
        slug="restaurant-reservation",
        name="Book a restaurant",
        for_alpha=True,
        description="A table at the right place, at the right time.",
        questions=[
            text("What date and time, and for how many people?"),
            text("Which neighborhood or cuisine?"),
            multiline("Is it for an occasion? Any special requests?", optional=True),
            phone(),
        ],
    ),
    DemoSurvey(
        category="other",
        id=632,
        slug="find-a-gift",
        name="Find a gift",
        for_alpha=True,
        description="Thoughtful ideas in your budget, delivered on time.",
        questions=[
            text("Who is the gift for?"),
            text("What's your budget?"),
            multiline("What do they like?", optional=True),
            email(),
        ],
    ),
]

# --------------------------------------------------------------------------- benefits & offers

OFFERING_CATEGORIES = [
    ("health", "Health"),
    ("financial", "Financial"),
    ("family", "Family"),
    ("home", "Home"),
    ("travel", "Travel"),
    ("wellness", "Wellness"),
    ("pets", "Pets"),
]


@dataclass(frozen=True)
class Pdf:
    """A small PDF written into storage; its URL becomes the item's external_url."""

    name: str
    title: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class DemoOffering:
    slug: str
    type: str
    provider_name: str
    color: str
    heading: str
    subheading: str
    name: str
    categories: tuple[str, ...]
    sections: tuple[tuple, ...]  # (section_type, heading, items, cta_url, cta_text)
    companies: tuple[str, ...] = ()
    featured: bool = False
    survey: str | None = None
    cta: str = ""


BENEFIT, PRODUCT = Offering.Type.BENEFIT, Offering.Type.PRODUCT
NUMBERED, KEY_VALUE, TEXT = (
    Section.SectionType.NUMBERED,
    Section.SectionType.KEY_VALUE,
    Section.SectionType.TEXT,
)

OFFERINGS = [
    # ---- Acme Corp benefits
    DemoOffering(
        slug="acme-blueharbor-medical",
        type=BENEFIT,
        provider_name="BlueHarbor Health",
        color="#1d4ed8",
        heading="Medical coverage",
        subheading="PPO plan with a nationwide network",
        name="BlueHarbor PPO 500",
        categories=("health",),
        companies=("acme",),
        featured=True,
        survey="help-with-benefits",
        cta="Help me with my benefits",
        sections=(
            (
                KEY_VALUE,
                "Contact BlueHarbor",
                [
                    ("phone", "1 (800) 555-0142", ""),
                    ("email", "members@blueharbor.example", ""),
                    ("link", "www.blueharbor.example/find-care", ""),
                    ("Group number", "ACME-4471", ""),
                    ("Member services", "Monday to Friday, 8am to 8pm ET", ""),
                ],
                "",
                "",
            ),
            (
                NUMBERED,
                "Find an in-network doctor",
                [
                    ("", "Sign in to the BlueHarbor member site with your member ID.", ""),
                    ("", "Choose 'Find care' and search by specialty and ZIP code.", ""),
                    ("", "Filter by 'Accepting new patients' and call the office to book.", ""),
                ],
                "https://www.blueharbor.example/find-care",
                "Search doctors",
            ),
            (
                TEXT,
                "Your plan at a glance",
                [
                    (
                        "",
                        "$500 individual deductible, $25 primary care visits, $40 specialists, and "
                        "free preventive care. Your spouse and children can join during open "
                        "enrollment or within 30 days of a life event.",
                        "",
                    ),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="acme-brightsmile-dental",
        type=BENEFIT,
        provider_name="BrightSmile Dental",
        color="#0891b2",
        heading="Dental & vision",
        subheading="Cleanings covered at 100%",
        name="BrightSmile Plus",
        categories=("health",),
        companies=("acme",),
        featured=True,
        sections=(
            (
                KEY_VALUE,
                "Your coverage",
                [
                    ("Cleanings and X-rays", "2 per year, covered 100%", ""),
                    ("Fillings", "Covered 80% after deductible", ""),
                    ("Annual maximum", "$2,000 per person", ""),
                    ("Vision", "1 eye exam and $150 toward frames every year", ""),
                    (
                        "download",
                        "Summary of benefits (PDF)",
                        Pdf(
                            "brightsmile-summary-of-benefits.pdf",
                            "BrightSmile Plus: summary of benefits",
                            (
                                "Cleanings and X-rays: 2 per year, covered 100%.",
                                "Fillings: covered 80% after a $50 deductible.",
                                "Crowns and bridges: covered 50%.",
                                "Annual maximum: $2,000 per person.",
                                "Vision: 1 eye exam and $150 toward frames every year.",
                            ),
                        ),
                    ),
                    ("phone", "1 (800) 555-0177", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="acme-nestwell-401k",
        type=BENEFIT,
        provider_name="Nestwell Retirement",
        color="#15803d",
        heading="401(k) retirement plan",
        subheading="Acme matches 100% of the first 4% you save",
        name="Acme 401(k) Savings Plan",
        categories=("financial",),
        companies=("acme",),
        featured=True,
        survey="help-with-benefits",
        cta="Help me enroll",
        sections=(
            (
                NUMBERED,
                "How to enroll",
                [
                    ("", "Create your Nestwell account with your work email.", ""),
                    ("", "Choose how much of each paycheck to save (4% gets the full match).", ""),
                    ("", "Pick a target-date fund or build your own mix.", ""),
                    ("", "Name your beneficiaries.", ""),
                ],
                "https://www.nestwell.example/enroll",
                "Start enrollment",
            ),
            (
                KEY_VALUE,
                "Plan details",
                [
                    ("Employer match", "100% of the first 4% of pay", ""),
                    ("Vesting", "Immediate", ""),
                    ("link", "www.nestwell.example", ""),
                    (
                        "email",
                        "help@nestwell.example",
                        "mailto:help@nestwell.example?subject=Acme%20401k",
                    ),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="acme-kinder-backup-care",
        type=BENEFIT,
        provider_name="Kinder Backup Care",
        color="#db2777",
        heading="Backup child care",
        subheading="10 subsidized days a year",
        name="Kinder Backup Care",
        categories=("family",),
        companies=("acme",),
        survey="find-babysitter",
        cta="Find care with my concierge",
        sections=(
            (
                TEXT,
                "When regular care falls through",
                [
                    (
                        "",
                        "School closed, sitter sick, or a last-minute trip: book a vetted caregiver "
                        "at home or a spot at a partner center for $15 a day, up to 10 days a "
                        "year.",
                        "",
                    ),
                ],
                "https://www.kindercare.example/backup",
                "Book backup care",
            ),
            (
                KEY_VALUE,
                "Get in touch",
                [
                    ("phone", "1 (888) 555-0111", ""),
                    ("link", "kindercare.example/backup", ""),
                    ("Cost", "$15 per day", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="acme-calmminds-eap",
        type=BENEFIT,
        provider_name="CalmMinds",
        color="#7c3aed",
        heading="Employee assistance program",
        subheading="Free, confidential counseling, 24/7",
        name="CalmMinds EAP",
        categories=("wellness", "health"),
        companies=("acme",),
        sections=(
            (
                TEXT,
                "Someone to talk to",
                [
                    (
                        "",
                        "Six free sessions per topic with a licensed counselor, by video, phone or "
                        "in person. Also covers legal and financial consultations. Your employer "
                        "never learns who uses it.",
                        "",
                    ),
                ],
                "",
                "",
            ),
            (
                KEY_VALUE,
                "Reach CalmMinds",
                [
                    ("phone", "1 (800) 555-0199", ""),
                    ("email", "care@calmminds.example", ""),
                    ("Free sessions", "6 per topic, per year", ""),
                    ("Available", "24 hours a day, 7 days a week", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    # ---- Globex benefits
    DemoOffering(
        slug="globex-summit-medical",
        type=BENEFIT,
        provider_name="Summit Care",
        color="#b45309",
        heading="Medical coverage",
        subheading="HMO plan with $0 primary care",
        name="Summit Care HMO",
        categories=("health",),
        companies=("globex",),
        featured=True,
        survey="in-network-doctor",
        cta="Find me an in-network doctor",
        sections=(
            (
                KEY_VALUE,
                "Contact Summit Care",
                [
                    ("phone", "1 (877) 555-0123", ""),
                    ("email", "support@summitcare.example", ""),
                    ("link", "summitcare.example/members", ""),
                    ("Group number", "GLBX-2210", ""),
                ],
                "",
                "",
            ),
            (
                NUMBERED,
                "Getting care",
                [
                    ("", "Choose a primary care doctor in the Summit network.", ""),
                    ("", "See them first: they refer you to specialists when needed.", ""),
                    ("", "Use urgent care or telehealth after hours.", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="globex-ledgerline-coaching",
        type=BENEFIT,
        provider_name="Ledgerline",
        color="#0f766e",
        heading="Financial coaching",
        subheading="One-on-one sessions with a certified planner",
        name="Ledgerline Coaching",
        categories=("financial",),
        companies=("globex",),
        sections=(
            (
                TEXT,
                "Plan with a pro",
                [
                    (
                        "",
                        "Budgeting, debt payoff, saving for a home or college: book unlimited "
                        "30-minute sessions with a certified financial planner.",
                        "",
                    ),
                ],
                "https://www.ledgerline.example/book",
                "Book a session",
            ),
            (
                KEY_VALUE,
                "Resources",
                [
                    (
                        "download",
                        "Budget worksheet (PDF)",
                        Pdf(
                            "ledgerline-budget-worksheet.pdf",
                            "Ledgerline: monthly budget worksheet",
                            (
                                "1. Take-home pay: ________",
                                "2. Housing and utilities: ________",
                                "3. Food and transport: ________",
                                "4. Savings and debt payments: ________",
                                "5. Everything else: ________",
                            ),
                        ),
                    ),
                    ("link", "www.ledgerline.example", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="globex-ridewise-commuter",
        type=BENEFIT,
        provider_name="RideWise",
        color="#4338ca",
        heading="Commuter benefits",
        subheading="Pre-tax transit and parking",
        name="RideWise Commuter Card",
        categories=("financial", "travel"),
        companies=("globex",),
        sections=(
            (
                KEY_VALUE,
                "How it works",
                [
                    ("Monthly limit", "$325 transit, $325 parking", ""),
                    ("Savings", "About 30% thanks to pre-tax dollars", ""),
                    ("link", "ridewise.example/globex", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    # ---- Partner offers for everyone
    DemoOffering(
        slug="pawsure-pet-insurance",
        type=PRODUCT,
        provider_name="Pawsure",
        color="#ea580c",
        heading="Pet insurance",
        subheading="Up to 15% off for members",
        name="Pawsure Accident & Illness",
        categories=("pets",),
        featured=True,
        sections=(
            (
                NUMBERED,
                "Get your quote",
                [
                    ("", "Tell us about your pet: species, breed and age.", ""),
                    ("", "Pick a deductible and reimbursement level.", ""),
                    ("", "Your member discount is applied at checkout.", ""),
                ],
                "/products/pet-insurance",
                "Get a quote",
            ),
            (
                KEY_VALUE,
                "Questions?",
                [
                    ("phone", "1 (866) 555-0150", ""),
                    ("Member discount", "Up to 15%", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="evergreen-term-life",
        type=PRODUCT,
        provider_name="Evergreen Life",
        color="#166534",
        heading="Term life insurance",
        subheading="Coverage in minutes, no medical exam for most",
        name="Evergreen Term 20",
        categories=("financial", "family"),
        featured=True,
        survey="compare-insurance",
        cta="Help me compare quotes",
        sections=(
            (
                TEXT,
                "Protect the people who count on you",
                [
                    (
                        "",
                        "10, 20 or 30-year terms from $100,000 to $2 million. Most applicants get "
                        "a decision the same day.",
                        "",
                    ),
                ],
                "/products/term-life-insurance",
                "Get a quote",
            ),
            (
                KEY_VALUE,
                "Talk to an agent",
                [
                    ("phone", "+1 (844) 555-0133", ""),
                    ("email", "agents@evergreenlife.example", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="hearthstone-home-warranty",
        type=PRODUCT,
        provider_name="Hearthstone",
        color="#9a3412",
        heading="Home warranty",
        subheading="Appliance and system repairs, one fixed fee",
        name="Hearthstone Complete",
        categories=("home",),
        sections=(
            (
                KEY_VALUE,
                "What's covered",
                [
                    ("Systems", "Heating, cooling, plumbing, electrical", ""),
                    ("Appliances", "Fridge, oven, dishwasher, washer and dryer", ""),
                    ("Service fee", "$75 per visit", ""),
                    ("link", "hearthstone.example/plans", ""),
                ],
                "/products/home-warranty",
                "See plans",
            ),
        ),
    ),
    DemoOffering(
        slug="legacydocs-wills",
        type=PRODUCT,
        provider_name="LegacyDocs",
        color="#334155",
        heading="Wills & trusts",
        subheading="Attorney-reviewed estate plan, 25% off",
        name="LegacyDocs Estate Plan",
        categories=("family", "financial"),
        sections=(
            (
                NUMBERED,
                "Three steps",
                [
                    ("", "Answer a short questionnaire (about 20 minutes).", ""),
                    ("", "An attorney in your state reviews your documents.", ""),
                    ("", "Sign, and update any time for free.", ""),
                ],
                "/products/wills-and-trusts",
                "Get started",
            ),
        ),
    ),
    DemoOffering(
        slug="wanderly-travel",
        type=PRODUCT,
        provider_name="Wanderly",
        color="#0369a1",
        heading="Travel perks",
        subheading="Members-only hotel rates",
        name="Wanderly Member Rates",
        categories=("travel",),
        featured=True,
        survey="weekend-getaway",
        cta="Plan a trip with my concierge",
        sections=(
            (
                KEY_VALUE,
                "Your perks",
                [
                    ("Promo code", "CONCIERGE10", ""),
                    ("Savings", "10% off hotels, 5% off rental cars", ""),
                    ("link", "wanderly.example/members", ""),
                ],
                "",
                "",
            ),
            (
                TEXT,
                "Good to know",
                [
                    ("", "Rates are refundable up to 48 hours before check-in.", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="fitflex-gyms",
        type=PRODUCT,
        provider_name="FitFlex",
        color="#be123c",
        heading="Gym network",
        subheading="$15 a month off 8,000 gyms",
        name="FitFlex Pass",
        categories=("wellness",),
        sections=(
            (
                KEY_VALUE,
                "Details",
                [
                    ("Discount", "$15 a month off any tier", ""),
                    ("link", "fitflex.example/join", ""),
                    ("email", "hello@fitflex.example", ""),
                ],
                "",
                "",
            ),
        ),
    ),
    DemoOffering(
        slug="cozycover-renters",
        type=PRODUCT,
        provider_name="CozyCover",
        color="#a16207",
        heading="Renters insurance",
        subheading="Policies from $9 a month",
        name="CozyCover Renters",
        categories=("home",),
        sections=(
            (
                TEXT,
                "Cover your things",
                [
                    (
                        "",
                        "Protects your belongings against theft, fire and water damage, plus "
                        "liability if a guest gets hurt.",
                        "",
                    ),
                ],
                "/products/renters-insurance",
                "Get a quote",
            ),
        ),
    ),
    # ---- A partner offer targeted to Acme Corp
    DemoOffering(
        slug="roadsafe-auto-acme",
        type=PRODUCT,
        provider_name="RoadSafe Auto",
        color="#dc2626",
        heading="Auto insurance",
        subheading="Group rate for Acme Corp employees",
        name="RoadSafe Group Auto",
        categories=("financial",),
        companies=("acme",),
        featured=True,
        survey="compare-insurance",
        cta="Help me compare quotes",
        sections=(
            (
                NUMBERED,
                "Switch in three steps",
                [
                    ("", "Have your current policy's declarations page handy.", ""),
                    ("", "Get a quote with your Acme Corp work email.", ""),
                    ("", "RoadSafe cancels your old policy for you.", ""),
                ],
                "/products/auto-insurance",
                "Get a quote",
            ),
            (
                KEY_VALUE,
                "Contact",
                [
                    ("phone", "1 (800) 555-0188", "tel:+18005550188"),
                    ("Acme group code", "ACME-AUTO-22", ""),
                ],
                "",
                "",
            ),
        ),
    ),
]


# --------------------------------------------------------------------------- file content


def logo_svg(provider_name: str, color: str) -> bytes:
    words = [w for w in provider_name.replace("&", " ").split() if w[0].isalnum()]
    initials = (words[0][0] + (words[1][0] if len(words) > 1 else "")).upper()
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="160" viewBox="0 0 160 160" '
        f'role="img" aria-label="{provider_name}">'
        f'<rect width="160" height="160" rx="36" fill="{color}"/>'
        '<circle cx="128" cy="32" r="14" fill="#ffffff" fill-opacity="0.25"/>'
        '<text x="80" y="82" text-anchor="middle" dominant-baseline="middle" '
        'font-family="Inter, Helvetica, Arial, sans-serif" font-size="60" font-weight="700" '
        f'fill="#ffffff">{initials}</text></svg>'
    ).encode()


def _pdf_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def simple_pdf(title: str, lines: tuple[str, ...]) -> bytes:
    """A one-page PDF (Helvetica, Latin-1) with a title and a few lines."""
    stream = [f"BT /F1 18 Tf 72 720 Td ({_pdf_text(title)}) Tj /F1 12 Tf"]
    for index, line in enumerate(lines):
        stream.append(f"0 {-36 if index == 0 else -20} Td ({_pdf_text(line)}) Tj")
    stream.append("ET")
    content = "\n".join(stream).encode("latin-1", "replace")
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content),
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def store_file(field_file: FieldFile, path: str, content: bytes) -> bool:
    """Points the field at `path` holding `content`; False when it already did."""
    storage = field_file.storage
    if field_file.name == path and storage.exists(path):
        return False
    if storage.exists(path):
        storage.delete(path)
    field_file.name = storage.save(path, ContentFile(content))
    return True


def stored_url(path: str, content: bytes) -> str:
    """Writes `content` at `path` in default storage (once) and returns its URL."""
    if not default_storage.exists(path):
        default_storage.save(path, ContentFile(content))
    return default_storage.url(path)


# --------------------------------------------------------------------------- the command


class Command(BaseCommand):
    help = (
        "Creates the demo companies, accounts, request surveys and benefits & offers. "
        "Safe to run again. The accounts' password comes from DEMO_PASSWORD."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        password = os.environ.get("DEMO_PASSWORD", "")
        if not password:
            raise CommandError(
                "DEMO_PASSWORD is not set: set it to the password the demo accounts should "
                "have, for example `DEMO_PASSWORD='choose-one' manage.py seed_demo`."
            )
        if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
            raise CommandError(
                f"DEMO_PASSWORD must be {PASSWORD_MIN} to {PASSWORD_MAX} characters long "
                "(the sign-in form refuses anything else)."
            )
        with transaction.atomic():
            companies = self.seed_companies()
            self.seed_users(companies, password)
            surveys = self.seed_surveys()
            self.seed_offerings(companies, surveys)
        self.print_summary()

    # -- companies and people

    def seed_companies(self) -> dict[str, Company]:
        companies = {}
        for slug, name, requires_mfa in COMPANIES:
            companies[slug], _ = Company.objects.update_or_create(
                slug=slug, defaults={"name": name, "requires_mfa": requires_mfa}
            )
        return companies

    def seed_users(self, companies: dict[str, Company], password: str) -> list[User]:
        concierges, _ = Group.objects.get_or_create(name=CONCIERGE_GROUP)
        view_permissions = Permission.objects.filter(
            content_type__app_label__in=["surveys", "offerings"], codename__startswith="view_"
        )
        concierges.permissions.add(*view_permissions)
        groups = {CONCIERGE_GROUP: concierges}
        users = []
        for demo in USERS:
            user, created = User.objects.update_or_create(
                email=demo.email,
                defaults={
                    "first_name": demo.first_name,
                    "last_name": demo.last_name,
                    "is_staff": demo.is_staff,
                    "is_superuser": demo.is_superuser,
                    "is_active": True,
                },
            )
            changed = []
            if not user.check_password(password):
                user.set_password(password)
                changed.append("password")
            if demo.onboarded and user.onboarded_at is None:
                user.onboarded_at = timezone.now()
                changed.append("onboarded_at")
            if changed:
                user.save(update_fields=changed)
            user.companies.add(*(companies[slug] for slug in demo.companies))
            user.groups.add(*(groups[name] for name in demo.groups))
            for answer_id, value in demo.onboarding_answers.items():
                OnboardingAnswer.objects.get_or_create(
                    user=user, answer_id=answer_id, defaults={"value": value}
                )
            users.append(user)
        return users

    # -- surveys

    def seed_surveys(self) -> dict[str, RequestSurvey]:
        categories = {}
        for position, (key, name, icon, recommended) in enumerate(SURVEY_CATEGORIES, start=1):
            categories[key], _ = SurveyCategory.objects.update_or_create(
                name=name,
                defaults={"icon": icon, "position": position, "recommended": recommended},
            )
        surveys = {}
        positions: dict[str, int] = {}
        for demo in SURVEYS:
            positions[demo.category] = positions.get(demo.category, 0) + 1
            fields = {
                "name": demo.name,
                "for_alpha": demo.for_alpha,
                "category": categories[demo.category],
                "description": demo.description,
                "position": positions[demo.category],
            }
            survey, _ = RequestSurvey.objects.update_or_create(
                slug=demo.slug, defaults=fields, create_defaults={"id": demo.id, **fields}
            )
            self.seed_questions(survey, demo.questions)
            surveys[demo.slug] = survey
        # Explicit ids do not move PostgreSQL's sequence: move it past them.
        with connection.cursor() as cursor:
            for sql in connection.ops.sequence_reset_sql(no_style(), [RequestSurvey]):
                cursor.execute(sql)
        return surveys

    def seed_questions(self, survey: RequestSurvey, questions: list[dict]) -> None:
        created: list[Question] = []
        for position, spec in enumerate(questions, start=1):
            show_if_question, show_if_value = None, ""
            if "show_if" in spec:
                number, show_if_value = spec["show_if"]
                show_if_question = created[number - 1]
            question, _ = Question.objects.update_or_create(
                survey=survey,
                position=position,
                defaults={
                    "label": spec["label"],
                    "input_type": spec["type"],
                    "optional": spec.get("optional", False),
                    "universal_answer": spec.get("universal"),
                    "show_if_question": show_if_question,
                    "show_if_value": show_if_value,
                },
            )
            for option_position, (label, value) in enumerate(spec.get("options", []), start=1):
                SelectOption.objects.update_or_create(
                    question=question,
                    value=value,
                    defaults={"label": label, "position": option_position},
                )
            created.append(question)

    # -- offerings

    def seed_offerings(
        self, companies: dict[str, Company], surveys: dict[str, RequestSurvey]
    ) -> None:
        categories = {}
        for position, (external_id, name) in enumerate(OFFERING_CATEGORIES, start=1):
            categories[external_id], _ = OfferingCategory.objects.update_or_create(
                external_id=external_id, defaults={"name": name, "position": position}
            )
        for position, demo in enumerate(OFFERINGS, start=1):
            offering, _ = Offering.objects.update_or_create(
                slug=demo.slug,
                defaults={
                    "type": demo.type,
                    "provider_name": demo.provider_name,
                    "provider_logo_url": "",
                    "heading": demo.heading,
                    "subheading": demo.subheading,
                    "name": demo.name,
                    "featured": demo.featured,
                    "position": position,
                    "request_survey": surveys[demo.survey] if demo.survey else None,
                    "request_survey_cta": demo.cta,
                },
            )
            if store_file(
                offering.provider_logo,
                f"offering-logos/{demo.slug}.svg",
                logo_svg(demo.provider_name, demo.color),
            ):
                offering.save(update_fields=["provider_logo"])
            offering.categories.set([categories[key] for key in demo.categories])
            offering.companies.set([companies[slug] for slug in demo.companies])
            for section_position, (section_type, heading, items, cta_url, cta_text) in enumerate(
                demo.sections, start=1
            ):
                section, _ = Section.objects.update_or_create(
                    offering=offering,
                    position=section_position,
                    defaults={
                        "section_type": section_type,
                        "heading": heading,
                        "cta_url": cta_url,
                        "cta_text": cta_text,
                    },
                )
                for item_position, (key, value, external) in enumerate(items, start=1):
                    if isinstance(external, Pdf):
                        external = stored_url(
                            f"offering-documents/{external.name}",
                            simple_pdf(external.title, external.lines),
                        )
                    SectionItem.objects.update_or_create(
                        section=section,
                        position=item_position,
                        defaults={"key": key, "value": value, "external_url": external},
                    )

    # -- summary

    def print_summary(self) -> None:
        write = self.stdout.write
        write(self.style.SUCCESS("Demo data is ready."))
        write("")
        write("Demo accounts (password: DEMO_PASSWORD):")
        for demo in USERS:
            write(f"  {demo.email:<24} {demo.first_name} {demo.last_name}, {demo.role}")
        write("")
        write(
            f"Companies: {Company.objects.count()} (sign-up links: /sign-up/acme, /sign-up/globex)"
        )
        write(
            f"Survey categories: {SurveyCategory.objects.count()}, "
            f"request surveys: {RequestSurvey.objects.count()}, "
            f"questions: {Question.objects.count()}"
        )
        write(
            f"Offering categories: {OfferingCategory.objects.count()}, "
            f"offerings: {Offering.objects.filter(type=BENEFIT).count()} benefits and "
            f"{Offering.objects.filter(type=PRODUCT).count()} partner offers"
        )
