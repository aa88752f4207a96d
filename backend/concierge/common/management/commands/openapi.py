import json

from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Writes the API's OpenAPI document (the source of the frontend's generated types)."

    def add_arguments(self, parser):
        parser.add_argument("--output", "-o", help="File to write; standard output by default")

    def handle(self, *args, output=None, **options):
        from config.api import api

        document = json.dumps(api.get_openapi_schema(), indent=2, sort_keys=True) + "\n"
        if output:
            with open(output, "w") as handle:
                handle.write(document)
        else:
            self.stdout.write(document, ending="")
