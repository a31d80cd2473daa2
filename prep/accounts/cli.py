"""The ``prep users`` commands: manage user accounts from the command line."""
from __future__ import annotations

import click
from flask.cli import with_appcontext

from ..extensions import db
from .models import Role
from .service import AccountError, create_user


@click.group("users")
def users_group() -> None:
    """Manage user accounts."""


@users_group.command("create")
@click.argument("email")
@click.option("--role", type=click.Choice([r.value for r in Role]), default=Role.candidate.value,
              show_default=True, help="The account's role.")
@click.option("--password", prompt=True, hide_input=True, confirmation_prompt=True,
              help="The password (prompted for when not given).")
@with_appcontext
def users_create(email: str, role: str, password: str) -> None:
    """Create a user account with a role (candidate, instructor or admin)."""
    try:
        user = create_user(email, password, role=Role(role))
    except AccountError as err:
        db.session.rollback()
        raise click.UsageError(str(err)) from None
    summary = f"created {user.email} ({user.role.value})"
    db.session.commit()
    click.echo(summary)
