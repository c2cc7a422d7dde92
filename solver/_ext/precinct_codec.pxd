# Police Precinct action ids for the compiled kernels: every constant of solver/games/precinct/codec.py
# with the same name and value, and each block's size (codec._BLOCKS) as <BLOCK>_SIZE. Declarations
# only (no .pyx): ``from solver._ext.precinct_codec cimport MOVE, MOVE_SIZE, ...``. Change codec.py and
# this file together; tests/test_precinct_kernel_city.py compares every name (precinct_city exposes
# them to Python).

cdef enum:
    # words: one action each
    PROCEED = 0
    YES = 1
    MARKED = 2
    UNMARKED = 3
    DRAW_ACTION = 4
    ARREST = 5
    ARREST_MURDERER = 6
    REVEAL = 7
    PLACE = 8
    HIDE = 9
    KEEP = 10
    BOTTOM = 11
    EV_FIRST = 12
    EV_LAST = 13
    SHUFFLE = 14
    NO_ACTION = 15
    # block starts (decisions)
    PICK = 16
    MOVE = 32
    SUPPORT = 96
    PLAY = 160
    HELP = 192
    DISCARD = 224
    INVESTIGATE = 256
    HANDLE = 260
    UPGRADE = 276
    ACCUSE = 280
    DONUTS = 288
    OFFICERS = 308
    SWAT = 316
    DONATE = 319
    SABOTAGE = 323
    REWARD = 327
    DECK = 335
    HOOD = 339
    LOYALTY = 345
    TARGET = 349
    # chance outcomes
    DIE = 400
    POLICE = 406
    EVENT = 438
    UNKNOWN = 502
    LOYAL = 512
    DIRTY = 513
    FOUND = 514
    LOOKED = 546
    SUCCESS = 554
    HANDLED = 594
    FAILED = 595
    COMPASS = 596
    GANG = 600
    NUM_ACTIONS = 608

    # the largest content the layout holds
    MAX_CHARACTERS = 16
    MAX_STREETS = 64
    MAX_POLICE_KINDS = 32
    MAX_EVENT_KINDS = 64
    MAX_SLOTS = 16
    MAX_SEATS = 8
    MAX_DONUTS = 19
    MAX_SUCCESS = 39
    MAX_FOUND = 31

    # block sizes: block X holds the ids X .. X + X_SIZE - 1
    PICK_SIZE = 16
    MOVE_SIZE = 64
    SUPPORT_SIZE = 64
    PLAY_SIZE = 32
    HELP_SIZE = 32
    DISCARD_SIZE = 32
    INVESTIGATE_SIZE = 4
    HANDLE_SIZE = 16
    UPGRADE_SIZE = 4
    ACCUSE_SIZE = 8
    DONUTS_SIZE = 20
    OFFICERS_SIZE = 8
    SWAT_SIZE = 3
    DONATE_SIZE = 4
    SABOTAGE_SIZE = 4
    REWARD_SIZE = 8
    DECK_SIZE = 4
    HOOD_SIZE = 6
    LOYALTY_SIZE = 4
    TARGET_SIZE = 8
    DIE_SIZE = 6
    POLICE_SIZE = 32
    EVENT_SIZE = 64
    UNKNOWN_SIZE = 10
    FOUND_SIZE = 32
    LOOKED_SIZE = 8
    SUCCESS_SIZE = 40
    COMPASS_SIZE = 4
    GANG_SIZE = 8
