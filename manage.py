#!/usr/bin/env python
"""Django's command-line utility for administrative tasks. A setting the environment gets wrong (``TABLES_TICK=x``)
is one line on stderr and exit status 2, not a traceback."""
import os
import sys

if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        print(f"manage.py: {error}", file=sys.stderr)
        sys.exit(2)
