"""Daily review reminders (email, in-app, calendar feed), wired into the app by
:func:`prep.reminders.wiring.init_app`.

Layout: ``timing`` (pure time maths), ``sweep`` (one sweep: find, claim, send; mail goes out
through :mod:`prep.mail`) with ``sweep_query`` (its SQL), ``sweep_claim`` (claiming a page of
due users, the once-a-day guard) and ``sweep_rules`` (its pure rules),
``calendar`` (iCalendar feed), ``tokens``, ``service`` (Flask-side operations),
``routes``/``forms`` (pages), ``scheduler`` (APScheduler), ``cli``, ``wiring`` (blueprint,
commands, banner and scheduler start-up).
"""
