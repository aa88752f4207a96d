"""Issue 25 'Backup and restore' (docs/operations/backup.md): the stored files through
`manage.py backup_files` / `restore_files` on the local disk and on S3 (moto, started by the
`moto_endpoint` fixture on 127.0.0.1), and on PostgreSQL the whole documented procedure: the
database with `pg_dump -Fc` / `pg_restore` into an empty new database, the files into an empty
storage, and every request, message and attachment found again, byte for byte."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import psycopg
import pytest
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.core.management import CommandError, call_command
from django.db import connection

from concierge.servicerequests import services as request_services
from concierge.uploads.backup import MANIFEST
from concierge.uploads.models import Upload
from concierge.uploads.services import upload_create
from concierge.uploads.storage import object_save, upload_storage
from concierge.uploads.tests.samples import pdf_bytes, png_bytes
from config.settings import upload_storage_config

BACKEND = Path(__file__).resolve().parents[3]
LOGO = png_bytes(4, 4, (10, 20, 30))


def make_threads(user, concierge) -> dict[str, bytes]:
    """Two requests, each with two employee messages carrying a file and a concierge's reply;
    and the company's logo (the default storage). Returns every upload key with its bytes."""
    files: dict[str, bytes] = {}
    for n, name in enumerate(["Renew my passport", "Find a dog walker"]):
        service_request = request_services.request_create(user=user, name=name)
        samples = [
            ("scan.pdf", pdf_bytes() + f"% request {n}\n".encode()),
            ("photo.png", png_bytes(n + 2, n + 3)),
        ]
        for i, (filename, data) in enumerate(samples):
            upload = upload_create(owner=user, filename=filename, request_id=service_request.pk)
            object_save(upload.key, io.BytesIO(data))
            request_services.message_create(
                request=service_request,
                author=user,
                body=f"Here is file {i} for {name}",
                attachment_keys=[upload.key],
            )
            files[upload.key] = data
        request_services.concierge_reply_create(
            request=service_request, author=concierge, body=f"On it: {name}"
        )
    company = user.companies.first()
    company.logo.save("acme.png", ContentFile(LOGO))
    assert Upload.objects.filter(status=Upload.Status.UPLOADED).count() == len(files) == 4
    return files


def stored_bytes(key: str) -> bytes:
    with upload_storage().open(key, "rb") as handle:
        return handle.read()


def logo_bytes(company) -> bytes:
    with default_storage.open(company.logo.name, "rb") as handle:
        return handle.read()


def use_bucket(settings, moto_endpoint: str, bucket: str) -> None:
    uploads = upload_storage_config(
        "s3",
        bucket=bucket,
        endpoint_url=moto_endpoint,
        access_key="testing",
        secret_key="testing",
        region="us-east-1",
    )
    settings.STORAGES = {**settings.STORAGES, "uploads": uploads}


def run(command: str, *args: str) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_issue_25_backup_local_files_come_back_into_an_empty_media_root(
    settings, tmp_path, user, concierge
):
    """Issue 25 backup: with STORAGE=local, backup_files copies every attachment and the
    admin's pictures; restore_files into an empty MEDIA_ROOT brings each back byte for byte; a
    second backup into the same folder copies nothing again"""
    files = make_threads(user, concierge)
    company = user.companies.first()
    backup = tmp_path / "backup"

    assert "5 copied, 0 already there" in run("backup_files", "--to", str(backup))
    assert "0 copied, 5 already there" in run("backup_files", "--to", str(backup))
    manifest = json.loads((backup / MANIFEST).read_text())
    assert {e["name"] for e in manifest["files"]["uploads"]} == set(files)
    assert [e["name"] for e in manifest["files"]["media"]] == [company.logo.name]

    settings.MEDIA_ROOT = tmp_path / "empty-media"
    assert not upload_storage().exists(next(iter(files)))
    assert "5 written, 0 already there" in run("restore_files", "--from", str(backup))

    assert {key: stored_bytes(key) for key in files} == files
    assert logo_bytes(company) == LOGO
    assert "0 written, 5 already there" in run("restore_files", "--from", str(backup))


@pytest.mark.django_db
def test_issue_25_restore_refuses_a_damaged_file_and_names_missing_ones(
    settings, tmp_path, user, concierge
):
    """Issue 25 backup: a file whose bytes no longer match the manifest is not restored and
    restore_files fails naming it, and every attached file the database knows but the storage
    lacks is named too"""
    files = make_threads(user, concierge)
    backup = tmp_path / "backup"
    run("backup_files", "--to", str(backup))
    damaged = next(iter(files))
    (backup / "uploads" / damaged).write_bytes(b"not the file")

    settings.MEDIA_ROOT = tmp_path / "empty-media"
    with pytest.raises(CommandError) as failure:
        run("restore_files", "--from", str(backup))

    message = str(failure.value)
    assert (
        "1 file not restored, not matching the manifest (damaged or missing in the backup): "
        f"uploads/{damaged}" in message
    )
    assert (
        f"1 file attached to messages or answers in the database not in the storage: {damaged}"
        in message
    )
    assert not upload_storage().exists(damaged)
    assert all(stored_bytes(key) == data for key, data in files.items() if key != damaged)


@pytest.mark.django_db
def test_issue_25_backup_s3_files_come_back_into_an_empty_bucket(
    settings, tmp_path, s3_storage, moto_endpoint, user, concierge
):
    """Issue 25 backup: with STORAGE=s3, backup_files lists the bucket and copies every object;
    restore_files into an empty new bucket brings each back byte for byte (and no readiness
    probe object is backed up)"""
    files = make_threads(user, concierge)
    s3_storage.put_object(Bucket=s3_storage.bucket, Key="_readiness/leftover", Body=b"ok")
    backup = tmp_path / "backup"

    assert "5 copied" in run("backup_files", "--to", str(backup))
    assert not (backup / "uploads" / "_readiness").exists()

    empty = f"restored-{uuid.uuid4().hex[:12]}"
    s3_storage.create_bucket(Bucket=empty)
    use_bucket(settings, moto_endpoint, empty)
    settings.MEDIA_ROOT = tmp_path / "empty-media"
    assert "5 written" in run("restore_files", "--from", str(backup))

    for key, data in files.items():
        assert s3_storage.get_object(Bucket=empty, Key=key)["Body"].read() == data
    assert logo_bytes(user.companies.first()) == LOGO


# The whole procedure of docs/operations/backup.md on PostgreSQL.


def _pg_url(database: str) -> str:
    s = connection.settings_dict
    auth = quote(s["USER"] or "postgres", safe="")
    if s["PASSWORD"]:
        auth += ":" + quote(s["PASSWORD"], safe="")
    return f"postgresql://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{database}"


def _rows(cursor, sql: str) -> list[tuple]:
    cursor.execute(sql)
    return sorted(tuple(row) for row in cursor.fetchall())


SNAPSHOT = {
    "requests": "SELECT id, user_id, name, status FROM servicerequests_servicerequest",
    "messages": "SELECT id, request_id, author_id, source, body_html FROM servicerequests_message",
    "attachments": (
        "SELECT a.message_id, u.key, u.filename, u.size, u.status "
        "FROM servicerequests_messageattachment a JOIN uploads_upload u ON u.id = a.upload_id"
    ),
    "logo": "SELECT slug, logo FROM accounts_company",
}


def _snapshot(cursor) -> dict[str, list[tuple]]:
    return {name: _rows(cursor, sql) for name, sql in SNAPSHOT.items()}


@pytest.mark.skipif(
    not (shutil.which("pg_dump") and shutil.which("pg_restore")), reason="needs pg_dump"
)
@pytest.mark.parametrize("storage", ["local", "s3"])
@pytest.mark.django_db(transaction=True)
def test_issue_25_restore_into_an_empty_database_and_storage_finds_everything(
    request, settings, tmp_path, user, concierge, storage
):
    """Issue 25 backup: pg_dump -Fc and backup_files, then pg_restore into an EMPTY new
    database and restore_files into an empty storage (local disk, or a new S3 bucket): every
    request, message and attachment is there, each file byte for byte, and the restored
    database needs no migration"""
    if connection.vendor != "postgresql":
        pytest.skip("the database backup is PostgreSQL's pg_dump")
    if storage == "s3":
        s3 = request.getfixturevalue("s3_storage")
        endpoint = request.getfixturevalue("moto_endpoint")
    files = make_threads(user, concierge)
    with connection.cursor() as cursor:
        before = _snapshot(cursor)
    assert len(before["requests"]) == 2
    assert len(before["messages"]) == 6
    assert len(before["attachments"]) == 4

    dump = tmp_path / "concierge.dump"
    subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", _pg_url(connection.settings_dict["NAME"])],
        check=True,
    )
    run("backup_files", "--to", str(tmp_path / "files"))

    restored = f"{connection.settings_dict['NAME']}_restored_{os.getpid()}"
    with psycopg.connect(_pg_url("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        admin.execute(f'CREATE DATABASE "{restored}"')
    try:
        subprocess.run(
            [
                "pg_restore",
                "--no-owner",
                "--no-privileges",
                "--exit-on-error",
                f"--dbname={_pg_url(restored)}",
                str(dump),
            ],
            check=True,
        )
        with psycopg.connect(_pg_url(restored)) as restored_db, restored_db.cursor() as cursor:
            after = _snapshot(cursor)
        assert after == before

        # The documented commands, run as an operator would against the restored database
        # and an empty storage: restore_files also checks that every uploaded file the
        # restored database knows is stored.
        media = tmp_path / "empty-media"
        env = {**os.environ, "DATABASE_URL": _pg_url(restored), "MEDIA_ROOT": str(media)}
        if storage == "s3":
            empty = f"restored-{uuid.uuid4().hex[:12]}"
            s3.create_bucket(Bucket=empty)
            env.update(
                STORAGE="s3",
                S3_BUCKET=empty,
                S3_ENDPOINT_URL=endpoint,
                S3_ACCESS_KEY_ID="testing",
                S3_SECRET_ACCESS_KEY="testing",
                S3_REGION="us-east-1",
            )
        else:
            env["STORAGE"] = "local"
        for command in (
            ["migrate", "--check"],
            ["restore_files", "--from", str(tmp_path / "files")],
        ):
            done = subprocess.run(
                [sys.executable, "manage.py", *command, "--settings=config.settings_test"],
                cwd=BACKEND,
                env=env,
                capture_output=True,
                text=True,
            )
            assert done.returncode == 0, done.stdout + done.stderr
        assert "5 written, 0 already there" in done.stdout

        settings.MEDIA_ROOT = media
        if storage == "s3":
            use_bucket(settings, endpoint, empty)
        attachments = {key for _message, key, *_ in after["attachments"]}
        assert attachments == set(files)
        assert {key: stored_bytes(key) for key in attachments} == files
        assert logo_bytes(user.companies.first()) == LOGO
    finally:
        with psycopg.connect(_pg_url("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{restored}" WITH (FORCE)')
