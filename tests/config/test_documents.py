"""The project's documents live in the repo: nothing points outside it, every relative link of README.md and docs/
leads to a file (and a heading) that exists, and every rule id the code cites is a rule of docs/rules.md."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SKIPPED_FOLDERS = {"__pycache__", "node_modules", "staticfiles", "htmlcov"}
# Folders beside the repo that a document once pointed to; written in two parts so that this file is no match.
OUTSIDE = ["/".join(["..", name]) for name in ("shared", "notes")] + ["/".join(["", "work", "shared"])]
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
RULE_ID = re.compile(r"\bR([1-9][0-9]?)\b")
RULE_HEADING = re.compile(r"^\*\*R([0-9]+) — ", re.MULTILINE)


def repo_files() -> list[Path]:
    """The repo's own files: no hidden folder (.git, .venv, caches), no build output."""
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part.startswith(".") or part in SKIPPED_FOLDERS or part.endswith(".egg-info") for part in parts):
            continue
        if path.is_file():
            found.append(path)
    return found


def text_of(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (UnicodeDecodeError, OSError):
        return None  # an image, a database file


def slug(heading: str) -> str:
    """A Markdown heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(document: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {slug(line.lstrip("#")) for line in text.splitlines() if line.startswith("#")}


def relative_links(document: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", document.read_text(encoding="utf-8"), flags=re.DOTALL)
    links = [a or b for a, b in LINK.findall(text)]
    return [link for link in links if not re.match(r"^[a-z][a-z0-9+.-]*:", link)]  # not http:, mailto:, …


def test_no_file_in_the_repo_points_to_a_folder_outside_it():
    offenders = []
    for path in repo_files():
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if any(outside in line for outside in OUTSIDE):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:100]}")
    assert not offenders, "documents outside the repo are cited (point them at docs/):\n" + "\n".join(offenders)


def test_every_relative_link_of_the_readme_and_the_docs_leads_to_a_file_and_heading_in_the_repo():
    assert (ROOT / "docs" / "rules.md").exists() and len(DOCUMENTS) > 5
    broken = []
    for document in DOCUMENTS:
        for link in relative_links(document):
            target, _, anchor = link.partition("#")
            path = (document.parent / target).resolve() if target else document
            where = f"{document.relative_to(ROOT)}: {link}"
            if not path.is_relative_to(ROOT) or not path.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and path.suffix == ".md" and anchor not in anchors(path):
                broken.append(f"{where} (no such heading in {path.relative_to(ROOT)})")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_every_rule_id_cited_in_the_code_is_a_rule_of_the_rule_book():
    rules = {int(number) for number in RULE_HEADING.findall((ROOT / "docs" / "rules.md").read_text(encoding="utf-8"))}
    assert rules == set(range(1, 28))
    cited: dict[int, str] = {}
    for path in repo_files():
        if path.suffix not in (".py", ".js", ".html") or path.parts[-2:] == ("config", "test_documents.py"):
            continue
        for number in RULE_ID.findall(text_of(path) or ""):
            cited.setdefault(int(number), str(path.relative_to(ROOT)))
    assert cited, "no rule id found in the code"
    unknown = {f"R{number}": where for number, where in cited.items() if number not in rules}
    assert not unknown, f"rule ids cited in the code but not in docs/rules.md: {unknown}"


def test_the_links_are_read_as_a_reader_would_follow_them():
    document = ROOT / "docs" / "running.md"
    assert "architecture.md#the-services-underneath" in relative_links(document)
    assert slug("Online tables (`bench_tables.py`)") == "online-tables-bench_tablespy"
    assert slug("At the door") == "at-the-door"
