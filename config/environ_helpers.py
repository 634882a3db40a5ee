"""Reading typed settings from the environment, with errors that name the variable (``ImproperlyConfigured``:
``manage.py`` prints it as one line and exits 2). A variable set to nothing counts as not set."""

import os

from django.core.exceptions import ImproperlyConfigured


def env_str(name: str, default: str) -> str:
    return os.environ.get(name) or default


def env_seconds(name: str, default: float, low: float, high: float) -> float:
    """A number of seconds from ``low`` to ``high``.

    >>> os.environ["EXAMPLE_PACE"] = "x"
    >>> env_seconds("EXAMPLE_PACE", 1.0, 0, 60)
    Traceback (most recent call last):
    django.core.exceptions.ImproperlyConfigured: EXAMPLE_PACE: 'x' is not a number of seconds
    >>> os.environ["EXAMPLE_PACE"] = "0.5"; env_seconds("EXAMPLE_PACE", 1.0, 0, 60)
    0.5
    >>> del os.environ["EXAMPLE_PACE"]; env_seconds("EXAMPLE_PACE", 1.0, 0, 60)
    1.0
    """
    value = os.environ.get(name) or str(default)
    try:
        seconds = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}: {value!r} is not a number of seconds") from None
    if not low <= seconds <= high:
        raise ImproperlyConfigured(f"{name}: {value!r} is not from {low:g} to {high:g} seconds")
    return seconds


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name}: must be true or false (1/0), got {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]
