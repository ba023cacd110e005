"""The rules search matches analysed terms (stems, CJK bigrams) instead of trigrams of the plain text."""

from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def words_table(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """SQLite: the FTS5 table holds the terms, split on spaces (they are analysed in Python)."""
    apps.get_model("scoring", "RuleText").objects.all().delete()  # rebuilt at the first search
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TABLE rule_search")
        schema_editor.execute(
            "CREATE VIRTUAL TABLE rule_search USING fts5(rule_id UNINDEXED, language UNINDEXED, words, "
            "tokenize='unicode61 remove_diacritics 0')"
        )


def trigram_table(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    apps.get_model("scoring", "RuleText").objects.all().delete()
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TABLE rule_search")
        schema_editor.execute(
            "CREATE VIRTUAL TABLE rule_search USING fts5(rule_id UNINDEXED, language UNINDEXED, plain, "
            "tokenize='trigram')"
        )


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0008_sheet_entry"),
    ]

    operations = [
        migrations.RunPython(words_table, trigram_table),
        migrations.RemoveField(model_name="ruletext", name="plain"),
        migrations.AddField(model_name="ruletext", name="words", field=models.TextField(default=""), preserve_default=False),
    ]
