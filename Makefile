# Relix build. `make` builds build/relix and build/librelix.a; `make test` runs every test;
# `make SAN=1 test` does the same under AddressSanitizer and UndefinedBehaviorSanitizer in
# build-san/. Sources are discovered by folder, one folder per pipeline stage.

CC      ?= cc
SAN     ?=
ifeq ($(SAN),1)
BUILD   ?= build-san
OPT     ?= -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
LDSAN   := -fsanitize=address,undefined
else
BUILD   ?= build
OPT     ?= -O2 -g
LDSAN   :=
endif

# libpq's headers, where pg_config says (the Debian path when pg_config is not installed).
PG_INC  := $(shell pg_config --includedir 2>/dev/null || echo /usr/include/postgresql)
# libmariadb's headers (mysql.h), where mariadb_config says (the Debian path otherwise).
MY_INC  := $(shell mariadb_config --variable=pkgincludedir 2>/dev/null || echo /usr/include/mariadb)
# libmongoc's and libbson's headers (MongoDB), where pkg-config says (the Debian paths without
# it). Both are loaded at run time (connect/mongo.c, connect/mongo_flatten.h); only the unit tests
# link libbson.
MONGO_INC  := $(shell pkg-config --cflags libmongoc-1.0 2>/dev/null || echo -I/usr/include/libmongoc-1.0 -I/usr/include/libbson-1.0)
MONGO_LIBS := $(shell pkg-config --libs libbson-1.0 2>/dev/null || echo -lbson-1.0)
WARN    := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wno-unused-parameter
# Position-independent, and only include/relix.h's functions visible outside the shared
# library (hidden symbols still link statically).
CFLAGS  += -std=c11 -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 $(OPT) $(WARN) -fPIC -fvisibility=hidden -Iinclude -Isrc -I$(PG_INC) -I$(MY_INC) $(MONGO_INC) -MMD -MP
# libpq, libmariadb, libsqlite3, libsnappy, libbson and libedit are not linked: they are loaded on
# first use (base/dynlib.h), so that a run that needs none of them maps none of them.
LDLIBS  += -lz -lzstd -lm -lpthread
# The unit tests call libsqlite3 and libbson themselves (test_prepare.c makes its database,
# test_mongo.c its documents).
UNIT_LIBS := -lsqlite3 $(MONGO_LIBS)

STAGES  := base types syntax analysis rewrite plan exec io connect api
LIB_SRC := $(foreach s,$(STAGES),$(wildcard src/$(s)/*.c))
CLI_SRC := $(wildcard src/cli/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

PREFIX  ?= /usr/local
# The shared library's soname: the major version (include/relix.h, RELIX_VERSION).
SOVER   := 0
SONAME  := librelix.so.$(SOVER)

.PHONY: all test unit clean examples install install-python fuzz print-libs
all: $(BUILD)/relix $(BUILD)/librelix.a $(BUILD)/librelix.so

# The shared library, for programs that load Relix at run time (python/relix): the same
# objects as the static one, exporting only the public API.
$(BUILD)/librelix.so: $(LIB_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDSAN) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined -o $(BUILD)/$(SONAME) $^ $(LDLIBS)
	ln -sf $(SONAME) $@

$(BUILD)/librelix.a: $(LIB_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/relix: $(CLI_OBJ) $(BUILD)/librelix.a
	$(CC) $(LDSAN) -o $@ $(CLI_OBJ) $(BUILD)/librelix.a $(LDLIBS)

# Objects depend on the flags they were compiled with: a change of flags rebuilds them.
FLAGS_STAMP := $(BUILD)/.flags
$(shell mkdir -p $(BUILD) && echo '$(CC) $(CFLAGS)' | cmp -s - $(FLAGS_STAMP) || echo '$(CC) $(CFLAGS)' > $(FLAGS_STAMP))

$(BUILD)/%.o: %.c $(FLAGS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/librelix.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDSAN) -o $@ $< $(BUILD)/librelix.a $(LDLIBS) $(UNIT_LIBS)

unit: $(UNIT_BIN)

test: all unit
	BUILD=$(BUILD) tests/run.sh

examples: all
	@for f in examples/*.rx; do echo "== $$f"; $(BUILD)/relix "$$f" || exit 1; done

# Installs build/relix, build/librelix.a, include/relix.h, a pkg-config file and the man page
# under $(PREFIX) (scripts/install.sh).
install: all
	scripts/install.sh "$(PREFIX)"

# Installs the Python module (python/relix) with the shared library beside it into Python's
# site-packages (PYTHON, /usr/bin/python3 by default; PYTHON_SITE overrides the folder).
install-python: all
	scripts/install-python.sh

# Builds the libFuzzer targets with clang and runs each for a bounded time (tests/fuzz/run.sh;
# FUZZ_SECONDS per target, 60 by default).
fuzz:
	tests/fuzz/run.sh

# Prints the libraries a program linking build/librelix.a statically needs (the tests that build
# C programs against it use this, so a new client library is named in one place).
print-libs:
	@echo $(LDLIBS)

clean:
	rm -rf build build-san build-fuzz

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d)
