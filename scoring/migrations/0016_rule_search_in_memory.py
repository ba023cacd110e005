"""The rules search holds its index in memory (issue 25): the rules' texts table and SQLite's FTS5 table go."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def drop_fts_table(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """The FTS5 table exists on SQLite only (migrations 0002 and 0009)."""
    schema_editor.execute("DROP TABLE IF EXISTS rule_search")


def create_fts_table(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Back to 0009's table, on SQLite; the former search filled it at its first question."""
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(
            "CREATE VIRTUAL TABLE rule_search USING fts5(rule_id UNINDEXED, language UNINDEXED, words, "
            "tokenize='unicode61 remove_diacritics 0')"
        )


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0015_winners_as_the_engine_names_them"),
    ]

    operations = [
        migrations.RunPython(drop_fts_table, create_fts_table),
        migrations.DeleteModel(name="RuleText"),
    ]
