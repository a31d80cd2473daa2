"""Drilling: cards (FSRS state per user and question), the review log, today's queue, rating
and undo, and the dashboard and drill pages. One concept per module:

* ``models``: the rows (cards, review logs, the days a plan books a card for);
* ``memory``: a card's memory state as plain values; ``scheduling``: the one adapter to py-fsrs
  (pure);
* ``queue``: today's queue, the rules (study day, limits, what comes next, the counts; pure);
  ``queue_queries``: the same from the database (the next card, today's counts);
* ``cards``: the candidate's cards (adding questions to study, finding, burying, suspending);
* ``rating``: a rating, recorded once, what reacts to it (``on_rated``) and undo;
  ``siblings``: the cards a rating buries; ``cramming``: reviews ahead of schedule;
* ``session``: the cards a drill session shows, as plain values; ``previews``: the intervals on
  the rating buttons; ``self_grading``: the rating ticked key points suggest (pure);
* ``planned``: the days a plan (interview mode) books cards for; ``streak``: the study streak.
"""
