"""posenc: the math behind the course "位置：模型怎么知道顺序".

Pure numpy (torch only where a lesson shows torch code). Every number and
figure on the site is computed from this package at build time.
"""

__version__ = "0.1.0"
