from django.apps import AppConfig


class ImporterConfig(AppConfig):
    name = "importer"
    verbose_name = "CSV import and export"
