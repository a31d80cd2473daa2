"""Company pages: the companies whose postings and interview reports a candidate can read
(/companies) and, for one company, its roles and the questions its reports ask, most often and
most recently asked first (/companies/<key>), with "study the top N".

Which company and role a document is about is decided when it is stored
(:mod:`prep.postings.canonical_company`, :mod:`prep.postings.role_family`); this feature only reads.
"""
