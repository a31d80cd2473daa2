"""Search: one box over the questions a user can see and the explanations, grouped by
explanation: terms, highlighting and paging (``matching``, pure), the queries (``service``), the page."""
