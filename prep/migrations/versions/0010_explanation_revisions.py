"""explanation_revisions: every explanation keeps its revisions; the current text is revision 1

Revision ID: 0010_explanation_revisions
Revises: 0009_pending_registrations

Each existing explanation gets its current text as revision 1 (origin 'migration'), rebuilt from
the stored fields (front matter as YAML, the Markdown body exactly as stored); the file's bytes
are not known here. The next sync (``prep init`` runs one right after migrating) replaces the
rebuilt text with the file's exact bytes when the file is the one last synced (same sha256), so
an export is byte-identical. Self-contained: alembic and sqlalchemy only.
"""
from alembic import op
import sqlalchemy as sa


revision = "0010_explanation_revisions"
down_revision = "0009_pending_registrations"
branch_labels = None
depends_on = None


def _quoted(text) -> str:
    """A YAML double-quoted string."""
    out = []
    for ch in str(text):
        if ch in '\\"':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ch == "\x7f":
            out.append("\\x%02x" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _rebuilt(row) -> str:
    """The explanation's text from its stored fields (the Markdown body exactly as stored)."""
    lines = ["---", f"title: {_quoted(row.title)}", f"slug: {row.slug}", f"lang: {row.lang}"]
    for name in ("tags", "skills", "related"):
        lines.append(f"{name}: [{', '.join(_quoted(v) for v in (getattr(row, name) or []))}]")
    questions = list(row.questions or [])
    lines.append("questions:" + ("" if questions else " []"))
    lines.extend(f"  - {_quoted(q)}" for q in questions)
    if row.difficulty is not None:
        lines.append(f"difficulty: {int(row.difficulty)}")
    lines.append("---")
    return "\n".join(lines) + "\n" + (row.body_md or "")


def upgrade():
    op.create_table(
        "explanation_revisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("explanation_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("html", sa.Text(), nullable=False),
        sa.Column("content_hash", sa.String(length=64), nullable=False),
        sa.Column("origin", sa.String(length=16), nullable=False),
        sa.Column("author_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["explanation_id"], ["explanations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["author_id"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("explanation_id", "number", name="uq_explanation_revision_number"),
    )
    with op.batch_alter_table("explanation_revisions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_explanation_revisions_explanation_id"), ["explanation_id"],
                              unique=False)
    with op.batch_alter_table("explanations", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.Text(), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("origin", sa.String(length=16), nullable=False, server_default="file"))
        batch_op.add_column(sa.Column("revision", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("file_hash", sa.String(length=64), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("conflict", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.add_column(sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.create_index(batch_op.f("ix_explanations_removed_at"), ["removed_at"], unique=False)

    bind = op.get_bind()
    explanations = sa.table(
        "explanations", sa.column("id", sa.Integer), sa.column("slug", sa.String), sa.column("lang", sa.String),
        sa.column("title", sa.String), sa.column("path", sa.String), sa.column("tags", sa.JSON),
        sa.column("skills", sa.JSON), sa.column("related", sa.JSON), sa.column("questions", sa.JSON),
        sa.column("difficulty", sa.Integer), sa.column("body_md", sa.Text), sa.column("html", sa.Text),
        sa.column("content_hash", sa.String), sa.column("source", sa.Text), sa.column("origin", sa.String),
        sa.column("revision", sa.Integer), sa.column("file_hash", sa.String),
        sa.column("updated_at", sa.DateTime(timezone=True)))
    revisions = sa.table(
        "explanation_revisions", sa.column("explanation_id", sa.Integer), sa.column("number", sa.Integer),
        sa.column("source", sa.Text), sa.column("html", sa.Text), sa.column("content_hash", sa.String),
        sa.column("origin", sa.String), sa.column("created_at", sa.DateTime(timezone=True)))
    rows = bind.execute(sa.select(explanations).order_by(explanations.c.id)).all()
    for row in rows:
        text = _rebuilt(row)
        # content_hash "" marks a rebuilt text: the sync puts in the file's bytes (see the docstring).
        bind.execute(revisions.insert().values(
            explanation_id=row.id, number=1, source=text, html=row.html or "", content_hash="",
            origin="migration", created_at=row.updated_at))  # the text as of its last sync
        bind.execute(explanations.update().where(explanations.c.id == row.id).values(
            source=text, origin="migration", revision=1, file_hash=row.content_hash or "", content_hash=""))


def downgrade():
    with op.batch_alter_table("explanations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_explanations_removed_at"))
        batch_op.drop_column("removed_at")
        batch_op.drop_column("conflict")
        batch_op.drop_column("file_hash")
        batch_op.drop_column("revision")
        batch_op.drop_column("origin")
        batch_op.drop_column("source")
    with op.batch_alter_table("explanation_revisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_explanation_revisions_explanation_id"))
    op.drop_table("explanation_revisions")
