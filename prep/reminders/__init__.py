"""Daily review reminders (email, in-app, webhook, calendar feed), wired into the app by
:func:`prep.reminders.wiring.init_app`.

Layout: ``channels`` (the channel registry: one module per channel, one interface), ``timing``
(pure time maths), ``sweep`` (one sweep: find, claim, deliver through each channel) with
``sweep_query`` (its SQL), ``sweep_claim`` (claiming a page of due reminders, the once-a-day-per-
channel guard) and ``sweep_rules`` (its pure rules),
``calendar`` (iCalendar feed), ``tokens``, ``service`` (Flask-side operations),
``routes``/``forms`` (pages), ``scheduler`` (APScheduler), ``cli``, ``wiring`` (blueprint,
commands, banner and scheduler start-up).
"""
