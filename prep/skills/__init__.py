"""The skills taxonomy: canonical skill names, their aliases in both languages, and a category."""
from .taxonomy import Skill, Taxonomy, TaxonomyError, find_skills, load_taxonomy, parse_taxonomy

__all__ = ["Skill", "Taxonomy", "TaxonomyError", "find_skills", "load_taxonomy", "parse_taxonomy"]
