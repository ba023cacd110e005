"""Usernames unique without regard to case: "ann" cannot sign up when "Ann" exists.

A unique index on LOWER(username) of Django's auth_user (SQLite and PostgreSQL both have expression
indexes). Accounts that already differ only in case are not renamed behind their owners' backs: the
migration stops and names them, so that whoever runs the site can rename all but one (for example with
``manage.py shell``) and migrate again.
"""

from __future__ import annotations

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def refuse_case_duplicates(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    User = apps.get_model("auth", "User")
    names: dict[str, list[str]] = {}
    for username in User.objects.using(schema_editor.connection.alias).values_list("username", flat=True):
        names.setdefault(username.lower(), []).append(username)
    clashes = sorted(group for group in names.values() if len(group) > 1)
    if clashes:
        listed = "; ".join(", ".join(sorted(group)) for group in clashes)
        raise RuntimeError(
            f"These accounts' usernames differ only in case: {listed}. Rename all but one of each, then migrate again."
        )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("scoring", "0003_sheet_games"),
    ]

    operations = [
        migrations.RunPython(refuse_case_duplicates, migrations.RunPython.noop),
        migrations.RunSQL(
            "CREATE UNIQUE INDEX auth_user_username_lower_uniq ON auth_user (LOWER(username))",
            "DROP INDEX auth_user_username_lower_uniq",
        ),
    ]
