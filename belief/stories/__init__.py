"""Generated ToM stories: actions rendered as plain English, the trace, and questions where ToM is needed.

:mod:`belief.stories.generator` samples stories from actions (seeded, pure), :mod:`belief.stories.text`
renders each event as one sentence and reads the sentences back (a rule translator), and
:mod:`belief.stories.questions` selects questions whose gold answer, from the checker, needs a model of
minds, each labelled with the phenomenon it hinges on. ``belief stories`` writes a set to a directory
(docs/evaluation.md).
"""
