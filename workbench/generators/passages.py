"""Public-domain passages for the book-scan family: a paragraph or two each, with their source.

Each passage is taken from inside a chapter rather than from a famous opening line, so a reader
has to read the page instead of reciting a book it remembers. The texts are of works published
before 1900 and in the public domain everywhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Passage:
    id: str
    author: str
    title: str            # the book, as the running head prints it
    chapter: str
    year: int
    paragraphs: tuple[str, ...]
    first_sentence: str   # spelled out, since abbreviations like "Mr." defeat a sentence splitter

    @property
    def text(self) -> str:
        return "\n\n".join(self.paragraphs)


PASSAGES: dict[str, Passage] = {p.id: p for p in (
    Passage(
        "melville", "Herman Melville", "Moby-Dick", "Loomings", 1851,
        (
            "There now is your insular city of the Manhattoes, belted round by wharves as Indian isles "
            "by coral reefs\u2014commerce surrounds it with her surf. Right and left, the streets take "
            "you waterward. Its extreme downtown is the battery, where that noble mole is washed by "
            "waves, and cooled by breezes, which a few hours previous were out of sight of land. Look "
            "at the crowds of water-gazers there.",
            "Circumambulate the city of a dreamy Sabbath afternoon. Go from Corlears Hook to Coenties "
            "Slip, and from thence, by Whitehall, northward. What do you see?\u2014Posted like silent "
            "sentinels all around the town, stand thousands upon thousands of mortal men fixed in "
            "ocean reveries. Some leaning against the spiles; some seated upon the pier-heads; some "
            "looking over the bulwarks of ships from China; some high aloft in the rigging, as if "
            "striving to get a still better seaward peep. But these are all landsmen; of week days "
            "pent up in lath and plaster\u2014tied to counters, nailed to benches, clinched to desks. "
            "How then is this? Are the green fields gone? What do they here?",
        ),
        "There now is your insular city of the Manhattoes, belted round by wharves as Indian isles by "
        "coral reefs\u2014commerce surrounds it with her surf.",
    ),
    Passage(
        "dickens", "Charles Dickens", "Great Expectations", "Chapter I", 1861,
        (
            "I give Pirrip as my father\u2019s family name, on the authority of his tombstone and my "
            "sister,\u2014Mrs. Joe Gargery, who married the blacksmith. As I never saw my father or my "
            "mother, and never saw any likeness of either of them (for their days were long before "
            "the days of photographs), my first fancies regarding what they were like were "
            "unreasonably derived from their tombstones. The shape of the letters on my "
            "father\u2019s, gave me an odd idea that he was a square, stout, dark man, with curly "
            "black hair. From the character and turn of the inscription, \u201cAlso Georgiana Wife "
            "of the Above,\u201d I drew a childish conclusion that my mother was freckled and "
            "sickly.",
        ),
        "I give Pirrip as my father\u2019s family name, on the authority of his tombstone and my "
        "sister,\u2014Mrs. Joe Gargery, who married the blacksmith.",
    ),
    Passage(
        "austen", "Jane Austen", "Pride and Prejudice", "Chapter I", 1813,
        (
            "Mr. Bennet was so odd a mixture of quick parts, sarcastic humour, reserve, and caprice, "
            "that the experience of three and twenty years had been insufficient to make his wife "
            "understand his character. Her mind was less difficult to develop. She was a woman of "
            "mean understanding, little information, and uncertain temper. When she was discontented, "
            "she fancied herself nervous. The business of her life was to get her daughters married; "
            "its solace was visiting and news.",
        ),
        "Mr. Bennet was so odd a mixture of quick parts, sarcastic humour, reserve, and caprice, that "
        "the experience of three and twenty years had been insufficient to make his wife understand "
        "his character.",
    ),
    Passage(
        "doyle", "Arthur Conan Doyle", "The Adventures of Sherlock Holmes", "The Red-Headed League", 1892,
        (
            "I had called upon my friend, Mr. Sherlock Holmes, one day in the autumn of last year and "
            "found him in deep conversation with a very stout, florid-faced, elderly gentleman with "
            "fiery red hair. With an apology for my intrusion, I was about to withdraw when Holmes "
            "pulled me abruptly into the room and closed the door behind me.",
        ),
        "I had called upon my friend, Mr. Sherlock Holmes, one day in the autumn of last year and "
        "found him in deep conversation with a very stout, florid-faced, elderly gentleman with "
        "fiery red hair.",
    ),
    Passage(
        "twain", "Mark Twain", "The Adventures of Tom Sawyer", "Chapter II", 1876,
        (
            "Saturday morning was come, and all the summer world was bright and fresh, and brimming "
            "with life. There was a song in every heart; and if the heart was young the music issued "
            "at the lips. There was cheer in every face and a spring in every step. The locust-trees "
            "were in bloom and the fragrance of the blossoms filled the air. Cardiff Hill, beyond the "
            "village and above it, was green with vegetation and it lay just far enough away to seem "
            "a Delectable Land, dreamy, reposeful, and inviting.",
            "Tom appeared on the sidewalk with a bucket of whitewash and a long-handled brush. He "
            "surveyed the fence, and all gladness left him and a deep melancholy settled down upon "
            "his spirit. Thirty yards of board fence nine feet high. Life to him seemed hollow, and "
            "existence but a burden.",
        ),
        "Saturday morning was come, and all the summer world was bright and fresh, and brimming with "
        "life.",
    ),
    Passage(
        "carroll", "Lewis Carroll", "Alice\u2019s Adventures in Wonderland", "Down the Rabbit-Hole", 1865,
        (
            "Either the well was very deep, or she fell very slowly, for she had plenty of time as she "
            "went down to look about her and to wonder what was going to happen next. First, she tried "
            "to look down and make out what she was coming to, but it was too dark to see anything; "
            "then she looked at the sides of the well, and noticed that they were filled with cupboards "
            "and book-shelves; here and there she saw maps and pictures hung upon pegs. She took down a "
            "jar from one of the shelves as she passed; it was labelled \u201cORANGE MARMALADE\u201d, "
            "but to her great disappointment it was empty: she did not like to drop the jar for fear of "
            "killing somebody underneath, so managed to put it into one of the cupboards as she fell "
            "past it.",
        ),
        "Either the well was very deep, or she fell very slowly, for she had plenty of time as she went "
        "down to look about her and to wonder what was going to happen next.",
    ),
    Passage(
        "twain_finn", "Mark Twain", "Adventures of Huckleberry Finn", "Chapter XIX", 1884,
        (
            "Two or three days and nights went by; I reckon I might say they swum by, they slid along so "
            "quiet and smooth and lovely. Here is the way we put in the time. It was a monstrous big "
            "river down there\u2014sometimes a mile and a half wide; we run nights, and laid up and hid "
            "daytimes; soon as night was most gone we stopped navigating and tied up\u2014nearly always "
            "in the dead water under a towhead; and then cut young cottonwoods and willows, and hid the "
            "raft with them. Then we set out the lines. Next we slid into the river and had a swim, so as "
            "to freshen up and cool off; then we set down on the sandy bottom where the water was about "
            "knee deep, and watched the daylight come.",
        ),
        "Two or three days and nights went by; I reckon I might say they swum by, they slid along so "
        "quiet and smooth and lovely.",
    ),
    Passage(
        "stoker", "Bram Stoker", "Dracula", "Chapter II", 1897,
        (
            "Within, stood a tall old man, clean shaven save for a long white moustache, and clad in "
            "black from head to foot, without a single speck of colour about him anywhere. He held in "
            "his hand an antique silver lamp, in which the flame burned without chimney or globe of any "
            "kind, throwing long quivering shadows as it flickered in the draught of the open door. The "
            "old man motioned me in with his right hand with a courtly gesture, saying in excellent "
            "English, but with a strange intonation:\u2014",
            "\u201cWelcome to my house! Enter freely and of your own will!\u201d",
        ),
        "Within, stood a tall old man, clean shaven save for a long white moustache, and clad in black "
        "from head to foot, without a single speck of colour about him anywhere.",
    ),
)}

STOPWORDS = frozenset("""
a about above after again all also am an and any are as at be been before being below between both
but by came can come could did do does done down each even every few for from had has have having he
her here him his how i if in into is it its just like made many may me more most much must my no
nor not now of off on once one only or other our out over own same says see seen shall she should so
some such than that the their them then there these they this those through to too under until up
upon us very was we well were what when where which while who whom why will with would yet you your
""".split())


def content_words(sentence: str) -> list[str]:
    """The sentence's plain words (letters only, no hyphen or apostrophe), stopwords skipped."""
    out: list[str] = []
    seen: set[str] = set()
    for token in sentence.replace("\u2014", " ").split():  # "reefs—commerce" is two words
        word = token.strip("\"'()[].,;:!?\u2018\u2019\u201c\u201d")
        if not re.fullmatch(r"[A-Za-z]+", word) or word.lower() in STOPWORDS or len(word) < 3:
            continue
        if word.lower() not in seen:
            seen.add(word.lower())
            out.append(word)
    return out


def keywords(sentence: str, count: int = 5) -> list[str]:
    """The `count` most distinctive content words (the longest; ties by first use), in sentence order."""
    words = content_words(sentence)
    ranked = sorted(range(len(words)), key=lambda i: (-len(words[i]), i))[:count]
    return [words[i] for i in sorted(ranked)]
