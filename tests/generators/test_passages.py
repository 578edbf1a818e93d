"""The book-scan family's passages (workbench/generators/passages.py): each a public-domain text
whose first sentence opens it, and the words a keyword matcher asks for: plain content words,
once each, the longest few in the sentence's order."""

from __future__ import annotations

from workbench.generators.passages import PASSAGES, content_words, keywords


def test_each_passage_opens_with_its_first_sentence_and_is_old_enough():
    assert len(PASSAGES) >= 3
    for p in PASSAGES.values():
        assert " ".join(p.text.split()).startswith(" ".join(p.first_sentence.split())), p.id
        assert p.year < 1900 and p.author and p.title and len(p.paragraphs) >= 1
        assert len(keywords(p.first_sentence)) == 5, p.id


def test_content_words_skip_stopwords_short_words_and_repeats():
    sentence = "The ship's captain—Captain Nemo—steered the ship between the reefs; we were not afraid."
    # ("ship's" is no plain word, "ship" later is; "Captain" again is a repeat; "between" a stopword)
    assert content_words(sentence) == ["captain", "Nemo", "steered", "ship", "reefs", "afraid"]
    assert content_words("an elephant's (enormous) tusk, Tusk again") == ["enormous", "tusk"]


def test_keywords_are_the_longest_words_in_the_sentences_order():
    sentence = "Whatever remains, however improbable, must be the truth of this matter."
    # improbable (10), Whatever (8), then remains before however (7 each: the first used)
    assert keywords(sentence, 3) == ["Whatever", "remains", "improbable"]
    assert keywords("tiny big", 5) == ["tiny", "big"]
