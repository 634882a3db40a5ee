"""Templates live beside the app that renders them (``<app>/templates/<app>/…``); the project's ``templates/`` keeps
only what every page shares. Every template an app names — in ``render``, ``render_to_string``, ``template_name``,
an inclusion tag, or a template's ``{% include %}`` / ``{% extends %}`` — is found by Django's loaders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template.loader import get_template

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "league", "games", "standings", "draw", "tables", "live", "notify", "importer", "pages", "ops")

SITE_WIDE = {  # the pages' frame, the error pages, the form snippets every app's forms use, the API's docs, and the
    # login page and django-allauth's pages (sign up, reset, …) drawn in that frame
    "403.html", "404.html", "base.html", "_pagination.html", "_error_summary.html", "_field.html",
    "_field_errors.html", "_non_field_errors.html", "registration/login.html", "drf_spectacular/swagger_ui.html",
    "allauth/layouts/base.html", "allauth/layouts/entrance.html", "allauth/layouts/manage.html",
    "allauth/elements/fields.html", "allauth/elements/form.html", "allauth/elements/button.html",
    "allauth/elements/alert.html", "_share.html",  # the share box of every page that shares (league's {% share %})
}

NAMED_IN_CODE = re.compile(r"""["']([\w/]+\.(?:html|js))["']""")
NAMED_IN_TEMPLATES = re.compile(r"""\{%\s*(?:include|extends)\s+["']([^"']+)["']""")


def names_in_code() -> set[str]:
    names = set()
    for app in APPS:
        for path in (ROOT / app).rglob("*.py"):
            names |= {name for name in NAMED_IN_CODE.findall(path.read_text()) if "/" in name or name in SITE_WIDE}
    return names


def names_in_templates() -> set[str]:
    names = set()
    for path in [*(ROOT / "templates").rglob("*.html"), *ROOT.glob("*/templates/**/*.html")]:
        names |= set(NAMED_IN_TEMPLATES.findall(path.read_text()))
    return names


def test_the_project_templates_folder_holds_only_the_site_wide_templates():
    found = {str(path.relative_to(ROOT / "templates")) for path in (ROOT / "templates").rglob("*") if path.is_file()}
    assert found == SITE_WIDE


def test_each_app_keeps_its_templates_under_its_own_name():
    for folder in ROOT.glob("*/templates"):
        app = folder.parent.name
        assert app in APPS, folder
        assert {child.name for child in folder.iterdir()} == {app}, folder


def test_the_scan_finds_the_apps_templates():
    assert {"games/sheet.html", "tables/lobby.html", "league/home.html"} <= names_in_code()
    assert {"base.html", "_pagination.html"} <= names_in_templates()


@pytest.mark.parametrize("name", sorted(names_in_code() | names_in_templates()))
def test_every_template_named_is_found(name):
    assert get_template(name) is not None
