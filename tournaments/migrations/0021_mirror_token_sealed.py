"""Venue mode's mirror token sealed at rest (tournaments/sealing.py): the column renamed
and widened, and the tokens stored in clear until now sealed under this machine's
SECRET_KEY. Going back opens them again (under the same key)."""

from django.db import migrations, models

from tournaments import sealing


def seal_tokens(apps, schema_editor):
    MirrorLink = apps.get_model("tournaments", "MirrorLink")
    for link in MirrorLink.objects.exclude(sealed_token="").only("pk", "sealed_token"):
        if not sealing.is_sealed(link.sealed_token):
            link.sealed_token = sealing.seal(link.sealed_token)
            link.save(update_fields=["sealed_token"])


def open_tokens(apps, schema_editor):
    MirrorLink = apps.get_model("tournaments", "MirrorLink")
    for link in MirrorLink.objects.exclude(sealed_token="").only("pk", "sealed_token"):
        if sealing.is_sealed(link.sealed_token):
            try:
                link.sealed_token = sealing.unseal(link.sealed_token)[:200]
            except ValueError:
                link.sealed_token = ""  # not to be opened here: enter it again
            link.save(update_fields=["sealed_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0020_series_audit"),
    ]

    operations = [
        migrations.RenameField(model_name="mirrorlink", old_name="token", new_name="sealed_token"),
        migrations.AlterField(
            model_name="mirrorlink",
            name="sealed_token",
            field=models.CharField(blank=True, max_length=400),
        ),
        migrations.RunPython(seal_tokens, open_tokens),
    ]
