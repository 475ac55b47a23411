"""The English source texts (`bot/messages/english.py`) read as plain English."""

from __future__ import annotations

from bot.messages import ENGLISH, Plural


def test_no_english_text_ends_a_sentence_right_after_a_question_mark() -> None:
    # "starts at 1500?." reads as a question, then a full stop.
    texts = {key: [source.one, source.other] if isinstance(source, Plural) else [source]
             for key, source in ENGLISH.items()}
    assert [key.value for key, forms in texts.items() if any("?." in f for f in forms)] == []
