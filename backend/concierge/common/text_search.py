"""Word search in PostgreSQL's full text: the words of what a person typed, a query that
finds every one of them as a word or a word's beginning ('walk' finds 'walkers'), and the
stored, GIN-indexed vectors it searches (`StoredVector`, installed by migrations).

Only letters and digits make a word, so quotes, operators and symbols never reach the query
syntax; English stop words ('the', 'a') drop out of the query, as they do out of the stored
`to_tsvector('english', ...)` vectors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WORDS_MAX = 8
WORD_CHARS = 40
_WORD = re.compile(r"\w+", re.UNICODE)
# The stored vector's column, on every table searched (see StoredVector).
COLUMN = "search_vector"


def search_words(text: str) -> list[str]:
    """The words of `text` (letters and digits), at most WORDS_MAX of WORD_CHARS each."""
    return [word[:WORD_CHARS] for word in _WORD.findall(text or "")][:WORDS_MAX]


def prefix_tsquery(words: list[str], *, weights: str = "") -> str:
    """`to_tsquery` text matching every word or a word's beginning: 'walk:* & park:*'; with
    `weights` ('A'), only in the parts of a vector given those weights."""
    return " & ".join(f"{word}:*{weights}" for word in words)


@dataclass(frozen=True)
class StoredVector:
    """A PostgreSQL table's `search_vector`: the `to_tsvector` of some of its columns, stored,
    GIN-indexed and kept up to date by a trigger on every insert and on updates of `columns`.

    `expression` is the vector's SQL over the row's columns, each written `{row}column`.
    Installing (`install`, in one transaction) computes the vectors of the rows already there
    in the table rewrite of a generated column, which fires no trigger and leaves no dead rows,
    then makes it a plain column that the trigger keeps: a generated column would forbid ever
    changing the type of a column it reads (a longer `max_length`, say). The rewrite holds an
    exclusive lock on the table; the index is built afterwards, concurrently, while the table
    takes writes again (`install_index`, outside a transaction). Each statement can run again
    after an interrupted attempt.
    """

    table: str
    expression: str
    columns: tuple[str, ...]
    index: str

    @property
    def _function(self) -> str:
        return f"{self.index}_vector"

    def install(self) -> list[str]:
        """The column, filled, and the trigger that keeps it: one transaction (a row written
        between two of these statements would miss its vector)."""
        unchanged = " AND ".join(f"NEW.{c} IS NOT DISTINCT FROM OLD.{c}" for c in self.columns)
        return [
            f"ALTER TABLE {self.table} ADD COLUMN IF NOT EXISTS {COLUMN} tsvector "
            f"GENERATED ALWAYS AS ({self.expression.format(row='')}) STORED",
            f"ALTER TABLE {self.table} ALTER COLUMN {COLUMN} DROP EXPRESSION IF EXISTS",
            f"""
CREATE OR REPLACE FUNCTION {self._function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND {unchanged} THEN RETURN NEW; END IF;
  NEW.{COLUMN} := {self.expression.format(row="NEW.")};
  RETURN NEW;
END $$""",
            f"DROP TRIGGER IF EXISTS {self.index} ON {self.table}",
            f"CREATE TRIGGER {self.index} BEFORE INSERT OR UPDATE OF {', '.join(self.columns)} "
            f"ON {self.table} FOR EACH ROW EXECUTE FUNCTION {self._function}()",
        ]

    def install_index(self) -> str:
        """The GIN index, built concurrently: outside a transaction, after `install` (drop an
        invalid leftover of an interrupted build first: common.migration_operations).
        Without a pending list every search reads the index alone, and no write pays for
        merging the list (a message's words go into the index as it is sent)."""
        return (
            f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {self.index} ON {self.table} "
            f"USING gin ({COLUMN}) WITH (fastupdate = off)"
        )

    def uninstall(self) -> list[str]:
        return [
            f"DROP TRIGGER IF EXISTS {self.index} ON {self.table}",
            f"DROP FUNCTION IF EXISTS {self._function}()",
            f"ALTER TABLE {self.table} DROP COLUMN IF EXISTS {COLUMN}",  # and its index
        ]
