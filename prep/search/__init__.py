"""Search: one box over the questions a user can see and the explanations, grouped by explanation."""
