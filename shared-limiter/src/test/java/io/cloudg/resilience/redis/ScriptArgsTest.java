package io.cloudg.resilience.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The argument layouts of {@link ScriptArgs} against {@code cloudg.lua}: every entry point's keys, arguments
 * and struct-packed arguments, name for name and position for position; {@code batch}'s copies of each call;
 * the entry lines' {@code clock(ARGV[n])}; the packed hot fields the reader expands. A layout changed on one
 * side only fails here, naming the entry point, the position and both names.
 */
class ScriptArgsTest {
    private static final String LUA = LuaScripts.read(Script.class, "cloudg.lua");

    @Test
    void theJavaLayoutsMatchTheLuaNameForNameAndPositionForPosition() {
        assertThat(problems(LUA, entries())).isEmpty();
    }

    @Test
    void everyEntryPointHasALayoutAndTheCheckSeesThemAll() {
        Map<String, Layout> lua = parse(LUA, new ArrayList<>());
        for (Script s : Script.values()) {
            assertThat(layoutClass(s)).as("ScriptArgs has a layout for %s", s).isNotNull();
            assertThat(lua).as("cloudg.lua declares the arguments of %s", s).containsKey(luaName(s));
        }
        assertThat(lua.get("admit").argv()).containsExactly("injected_now", "limits", "leaf_scope", "account_scope",
                "ttl", "bulkhead_ttl");
        assertThat(lua.get("admit").packed().get("limits")).hasSize(17).startsWith("permits", "ceiling").endsWith("refill_share");
        assertThat(helperUnpack(LUA, "window", new ArrayList<>(), "record")).containsExactly("reset", "calls", "length");
    }

    /** The check fails on a drift: two arguments swapped in the script (or, alike, two offsets in Java). */
    @Test
    void twoArgumentsSwappedInTheScriptFailNamingBoth() {
        String drifted = replaceOnce(LUA, "local injected_now, limits, leaf_scope, account_scope, ttl, bulkhead_ttl =",
                "local injected_now, limits, account_scope, leaf_scope, ttl, bulkhead_ttl =");
        assertThat(problems(drifted, entries())).containsExactly(
                "admit ARGV[3]: ScriptArgs.Admit.Argv.LEAF_SCOPE, but cloudg.lua names it account_scope",
                "admit ARGV[4]: ScriptArgs.Admit.Argv.ACCOUNT_SCOPE, but cloudg.lua names it leaf_scope");
    }

    @Test
    void twoPackedLimitsSwappedFail() {
        String drifted = replaceOnce(LUA, "local ceiling, burst, floor, adaptive, breaker_on, threshold,",
                "local ceiling, floor, burst, adaptive, breaker_on, threshold,");
        assertThat(problems(drifted, entries())).contains(
                "record limits (packed) [2]: ScriptArgs.Record.Limits.BURST, but cloudg.lua names it floor");
    }

    @Test
    void anArgumentReadOutsideTheLayoutLinesFails() {
        String drifted = replaceOnce(LUA, "  local kind, gen, wait = 0, 0, 0\n", "  local kind, gen, wait = 0, 0, A[7]\n");
        assertThat(problems(drifted, entries()))
                .containsExactly("admit reads KEYS or ARGV outside its layout lines: A[7]");
    }

    @Test
    void aBatchCopyOfOtherCountsFails() {
        String drifted = replaceOnce(LUA, "k, a, call = k + 3, a + 6, admit", "k, a, call = k + 3, a + 5, admit");
        assertThat(problems(drifted, entries())).containsExactly(
                "batch copies 5 arguments of each admit call (the a + n step), but ScriptArgs.Admit.Argv has 6",
                "batch's admit branch copies more arguments than its step of 5");
    }

    @Test
    void anArgumentAddedOnOneSideOnlyFails() {
        String drifted = replaceOnce(LUA, "local injected_now, ttl = A[1], A[2]", "local injected_now, ttl, x = A[1], A[2], A[3]");
        assertThat(problems(drifted, entries())).containsExactly(
                "registered ARGV: ScriptArgs.Registered.Argv has 2 ([injected_now, ttl]), cloudg.lua 3 ([injected_now, ttl, x])");
    }

    @Test
    void anEntryLineReadingTheClockElsewhereFails() {
        Map<Script, String> entries = entries();
        entries.put(Script.ADMIT, "return admit(KEYS, ARGV, clock(ARGV[2]))");
        assertThat(problems(LUA, entries)).containsExactly(
                "Script.ADMIT's entry line reads the clock from ARGV[2], but ScriptArgs.Admit.Argv.INJECTED_NOW is ARGV[1]");
    }

    // ------------------------------------------------------------------ the check

    /** Each entry point's line (what Redis runs after the library), as {@link Script} has it. */
    private static Map<Script, String> entries() {
        Map<Script, String> out = new java.util.EnumMap<>(Script.class);
        for (Script s : Script.values()) {
            out.put(s, s.entry);
        }
        return out;
    }

    /** What one entry point names: its keys, its arguments, and the doubles of each packed argument. */
    record Layout(List<String> keys, List<String> argv, Map<String, List<String>> packed) {
    }

    private static final Pattern FUNCTION = Pattern.compile("(?m)^local function (\\w+)\\(([^)]*)\\)\\n(.*?)^end$",
            Pattern.DOTALL);
    private static final Pattern LAYOUT = Pattern.compile(
            "local\\s+((?:\\w+\\s*,\\s*)*\\w+)\\s*=\\s*(([KA])\\[1\\](?:\\s*,\\s*[KA]\\[\\d+\\])*)\\s*\\n");
    private static final Pattern REF = Pattern.compile("([KA])\\[(\\d+)\\]");
    private static final Pattern ANY_REF = Pattern.compile("\\b[KA]\\[[^\\]]*\\]");
    private static final Pattern UNPACK = Pattern.compile(
            "local\\s+((?:\\w+\\s*,\\s*)*\\w+)\\s*=\\s*struct\\.unpack\\('<(d+)',\\s*(\\w+)\\)");
    private static final Pattern BATCH_BRANCH = Pattern.compile(
            "kind == (\\d+) then[^\\n]*\\n(.*?)k, a, call = k \\+ (\\d+), a \\+ (\\d+), (\\w+)", Pattern.DOTALL);

    /** Every difference between {@code lua} (and the entry lines) and {@link ScriptArgs}, as sentences. */
    static List<String> problems(String lua, Map<Script, String> entries) {
        List<String> out = new ArrayList<>();
        Map<String, Layout> parsed = parse(lua, out);
        for (Script s : Script.values()) {
            Class<?> java = layoutClass(s);
            Layout l = parsed.get(luaName(s));
            if (java == null || l == null) {
                out.add(s + ": " + (java == null ? "no ScriptArgs layout" : "cloudg.lua declares no arguments"));
                continue;
            }
            String name = luaName(s);
            Class<?> keys = nested(java, "Keys");
            if (s != Script.BATCH || keys != null) {
                compare(name + " KEYS", keys, l.keys(), out);
            }
            compare(name + " ARGV", nested(java, "Argv"), l.argv(), out);
            for (Class<?> c : java.getDeclaredClasses()) {
                String arg = c.getSimpleName().toLowerCase(Locale.ROOT);
                if (c.getSimpleName().equals("Keys") || c.getSimpleName().equals("Argv")) {
                    continue;
                }
                List<String> unpacked = l.packed().get(arg);
                if (unpacked == null) {
                    unpacked = helperUnpack(lua, arg, out, name);
                }
                compare(name + " " + arg + " (packed)", c, unpacked, out);
            }
            Matcher clock = Pattern.compile("clock\\(ARGV\\[(\\d+)\\]\\)").matcher(entries.get(s));
            if (clock.find()) {
                int at = Integer.parseInt(clock.group(1));
                Integer now = offsets(nested(java, "Argv")).get("INJECTED_NOW");
                if (now == null || now + 1 != at) {
                    out.add("Script." + s + "'s entry line reads the clock from ARGV[" + at + "], but ScriptArgs."
                            + java.getSimpleName() + ".Argv.INJECTED_NOW is "
                            + (now == null ? "absent" : "ARGV[" + (now + 1) + "]"));
                }
            }
        }
        checkBatch(lua, out);
        checkHotFields(lua, out);
        return out;
    }

    /** The layouts the entry points declare; a read of KEYS or ARGV elsewhere is a problem. */
    static Map<String, Layout> parse(String luaText, List<String> problems) {
        String lua = withoutComments(luaText);
        Map<String, Layout> out = new LinkedHashMap<>();
        Matcher f = FUNCTION.matcher(lua);
        int outside = 0;
        StringBuilder rest = new StringBuilder();
        while (f.find()) {
            rest.append(lua, outside, f.start());
            outside = f.end();
            String name = f.group(1);
            String body = f.group(3);
            if (!f.group(2).startsWith("K, A")) {
                rest.append(body);
                continue;
            }
            List<String> keys = new ArrayList<>();
            List<String> argv = new ArrayList<>();
            Matcher m = LAYOUT.matcher(body);
            StringBuilder unread = new StringBuilder();
            int at = 0;
            while (m.find()) {
                List<String> names = names(m.group(1));
                List<String> refs = new ArrayList<>();
                Matcher r = REF.matcher(m.group(2));
                int i = 1;
                boolean inOrder = true;
                while (r.find()) {
                    refs.add(r.group());
                    inOrder &= r.group(1).equals(m.group(3)) && Integer.parseInt(r.group(2)) == i++;
                }
                if (!inOrder || refs.size() != names.size()) {
                    problems.add(name + "'s layout line must name " + m.group(3) + "[1], " + m.group(3)
                            + "[2], ... in order, one name each, but was: " + m.group().trim());
                }
                (m.group(3).equals("K") ? keys : argv).addAll(names);
                unread.append(body, at, m.start());
                at = m.end();
            }
            unread.append(body.substring(at));
            if (!name.equals("batch")) {
                Matcher stray = ANY_REF.matcher(unread);
                while (stray.find()) {
                    problems.add(name + " reads KEYS or ARGV outside its layout lines: " + stray.group());
                }
            }
            Map<String, List<String>> packed = new TreeMap<>();
            Matcher u = UNPACK.matcher(body);
            while (u.find()) {
                List<String> names = names(u.group(1));
                if (names.size() != u.group(2).length()) {
                    problems.add(name + " unpacks " + u.group(2).length() + " doubles of " + u.group(3) + " into "
                            + names.size() + " names");
                }
                packed.put(u.group(3), names);
            }
            out.put(name, new Layout(keys, argv, packed));
        }
        rest.append(lua.substring(outside));
        Matcher stray = ANY_REF.matcher(rest);
        while (stray.find()) {
            problems.add("cloudg.lua reads KEYS or ARGV outside an entry point: " + stray.group());
        }
        return out;
    }

    /** {@code lua} without its comments (each {@code --} to the end of its line; the library has no strings with --). */
    private static String withoutComments(String lua) {
        return lua.replaceAll("--[^\n]*", "");
    }

    /** The names a helper function unpacks argument {@code arg} into ({@code quota_window(window)}). */
    private static List<String> helperUnpack(String lua, String arg, List<String> problems, String entry) {
        List<List<String>> found = new ArrayList<>();
        Matcher u = UNPACK.matcher(withoutComments(lua));
        while (u.find()) {
            if (u.group(3).equals(arg)) {
                found.add(names(u.group(1)));
            }
        }
        if (found.size() != 1) {
            problems.add(entry + "'s packed argument " + arg + " must be unpacked into named locals once (in the entry"
                    + " point or in one helper), but cloudg.lua does so " + found.size() + " times");
            return List.of();
        }
        return found.get(0);
    }

    private static void checkBatch(String lua, List<String> out) {
        Matcher f = FUNCTION.matcher(withoutComments(lua));
        String body = null;
        while (f.find()) {
            if (f.group(1).equals("batch")) {
                body = f.group(3);
            }
        }
        if (body == null) {
            out.add("cloudg.lua has no batch");
            return;
        }
        Map<String, Byte> kinds = Map.of("admit", ScriptArgs.Batch.ADMIT_KIND, "record", ScriptArgs.Batch.RECORD_KIND,
                "free", ScriptArgs.Batch.FREE_KIND);
        Matcher b = BATCH_BRANCH.matcher(body);
        List<String> seen = new ArrayList<>();
        while (b.find()) {
            String call = b.group(5);
            seen.add(call);
            Class<?> java = layoutClass(Script.valueOf(call.toUpperCase(Locale.ROOT)));
            int kind = Integer.parseInt(b.group(1));
            if (kinds.get(call) == null || kinds.get(call) != kind) {
                out.add("batch runs " + call + " for kind " + kind + ", but ScriptArgs.Batch says " + kinds.get(call));
            }
            copies(call, "keys", "k", Integer.parseInt(b.group(3)), b.group(2), nested(java, "Keys"), out);
            copies(call, "args", "a", Integer.parseInt(b.group(4)), b.group(2), nested(java, "Argv"), out);
        }
        if (!seen.containsAll(kinds.keySet())) {
            out.add("batch must have one branch per kind of ScriptArgs.Batch " + kinds.keySet() + ", but had " + seen);
        }
        for (Class<?> c : List.of(ScriptArgs.Admit.Argv.class, ScriptArgs.Record.Argv.class)) {
            Integer now = offsets(c).get("INJECTED_NOW");
            if (now == null || !body.contains("elseif args[" + (now + 1) + "] ~= '' then")) {
                out.add("batch must read the injected_now of " + c.getEnclosingClass().getSimpleName() + " from args["
                        + (now == null ? "?" : now + 1) + "]");
            }
        }
    }

    /** Whether a batch branch copies {@code count} keys or arguments, as the layout has, each to its place. */
    private static void copies(String call, String table, String cursor, int step, String branch, Class<?> layout,
                               List<String> out) {
        int count = offsets(layout).size();
        String what = table.equals("keys") ? "keys" : "arguments";
        if (step != count) {
            out.add("batch copies " + step + " " + what + " of each " + call + " call (the " + cursor + " + n step), but"
                    + " ScriptArgs." + layout.getEnclosingClass().getSimpleName() + "." + layout.getSimpleName()
                    + " has " + count);
        }
        String source = table.equals("keys") ? "K" : "A";
        for (int i = 1; i <= step; i++) {
            Pattern one = Pattern.compile(Pattern.quote(table + "[" + i + "]") + "[^=]*=[^\\n]*"
                    + Pattern.quote(source + "[" + cursor + " + "));
            if (!branch.contains(table + "[" + i + "]") || !branch.contains(source + "[" + cursor + " + " + i + "]")
                    || !one.matcher(branch).find()) {
                out.add("batch's " + call + " branch does not copy " + source + "[" + cursor + " + " + i + "] to "
                        + table + "[" + i + "]");
            }
        }
        if (branch.contains(table + "[" + (step + 1) + "]")) {
            out.add("batch's " + call + " branch copies more " + what + " than its step of " + step);
        }
    }

    private static void checkHotFields(String lua, List<String> out) {
        Matcher m = Pattern.compile("local HOT_FIELDS = \\{([^}]*)\\}").matcher(lua);
        if (!m.find()) {
            out.add("cloudg.lua declares no HOT_FIELDS");
            return;
        }
        List<String> lua9 = Arrays.stream(m.group(1).split(",")).map(s -> s.trim().replace("'", "")).toList();
        if (!lua9.equals(List.of(StateReader.HOT_FIELDS))) {
            out.add("the packed hot fields: Java reads " + List.of(StateReader.HOT_FIELDS) + ", cloudg.lua packs "
                    + lua9);
        }
    }

    /** Compares a layout class's offsets (by value) with the names the Lua gives, position by position. */
    private static void compare(String what, Class<?> layout, List<String> lua, List<String> out) {
        if (layout == null) {
            out.add(what + ": no ScriptArgs layout, cloudg.lua names " + lua);
            return;
        }
        Map<String, Integer> offsets = offsets(layout);
        String[] java = new String[offsets.size()];
        for (Map.Entry<String, Integer> e : offsets.entrySet()) {
            int at = e.getValue();
            if (at < 0 || at >= java.length || java[at] != null) {
                out.add(what + ": ScriptArgs offsets must be 0.." + (java.length - 1) + ", each once, but "
                        + e.getKey() + " is " + at);
                return;
            }
            java[at] = e.getKey();
        }
        String owner = "ScriptArgs." + layout.getEnclosingClass().getSimpleName() + "." + layout.getSimpleName();
        Integer count = count(layout);
        if (count == null || count != java.length) {
            out.add(what + ": " + owner + ".COUNT must be " + java.length + ", but was " + count);
        }
        if (java.length != lua.size()) {
            List<String> names = Arrays.stream(java).map(n -> n.toLowerCase(Locale.ROOT)).toList();
            out.add(what + ": " + owner + " has " + java.length + " (" + names + "), cloudg.lua " + lua.size() + " (" + lua
                    + ")");
            return;
        }
        String kind = what.endsWith("KEYS") || what.endsWith("ARGV") ? "" : " ";
        for (int i = 0; i < java.length; i++) {
            if (!java[i].toLowerCase(Locale.ROOT).equals(lua.get(i))) {
                out.add(what + kind + "[" + (i + 1) + "]: " + owner + "." + java[i] + ", but cloudg.lua names it "
                        + lua.get(i));
            }
        }
    }

    /** A layout class's named offsets: its static final int fields but COUNT. */
    static Map<String, Integer> offsets(Class<?> layout) {
        Map<String, Integer> out = new LinkedHashMap<>();
        if (layout == null) {
            return out;
        }
        for (Field f : layout.getDeclaredFields()) {
            int mod = f.getModifiers();
            if (Modifier.isStatic(mod) && Modifier.isFinal(mod) && f.getType() == int.class && !f.getName().equals("COUNT")) {
                out.put(f.getName(), intOf(f));
            }
        }
        return out;
    }

    private static Integer count(Class<?> layout) {
        try {
            return intOf(layout.getDeclaredField("COUNT"));
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static int intOf(Field f) {
        try {
            f.setAccessible(true);
            return f.getInt(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Class<?> layoutClass(Script s) {
        String name = s.name().charAt(0) + s.name().substring(1).toLowerCase(Locale.ROOT);
        return nested(ScriptArgs.class, name);
    }

    private static Class<?> nested(Class<?> in, String simpleName) {
        for (Class<?> c : in.getDeclaredClasses()) {
            if (c.getSimpleName().equals(simpleName)) {
                return c;
            }
        }
        return null;
    }

    private static String luaName(Script s) {
        return s.name().toLowerCase(Locale.ROOT);
    }

    private static List<String> names(String list) {
        return Arrays.stream(list.split(",")).map(String::trim).toList();
    }

    private static String replaceOnce(String text, String what, String with) {
        assertThat(text.split(Pattern.quote(what), -1)).as("the fixture's anchor occurs once: %s", what).hasSize(2);
        return text.replace(what, with);
    }
}
