package io.dra4j.cel;

import static io.dra4j.cel.TestDevices.device;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Error texts as upstream (dynamic-resource-allocation v0.37.2 on cel-go v0.29.2) produces them. */
class SelectorErrorTextTest {

    private final DeviceSelectorEnvironment env = DeviceSelectorEnvironment.create(new CelFeatures(false, false));

    private EvalResult eval(String expression) {
        CompiledExpression compiled = env.compile(expression);
        assertThat(compiled.compileError()).isEmpty();
        return compiled.evaluate(env.device(
                "dra.example.com",
                device().intAttr("n", 1).stringsAttr("names", "fish", "bird").build()));
    }

    @Test
    void undeclaredReference() {
        assertThat(env.compile("x").compileError())
                .contains(
                        "compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x\n | ^");
    }

    @Test
    void undefinedFieldOnASecondLine() {
        assertThat(env.compile("device.driver == 'a' &&\n  device.x").compileError())
                .contains("compilation failed: ERROR: <input>:2:9: undefined field 'x'\n |   device.x\n | ........^");
    }

    @Test
    void syntaxErrorsAreListedInOrder() {
        String expecting = "expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT,"
                + " NUM_UINT, STRING, BYTES, IDENTIFIER}";
        assertThat(env.compile("?!").compileError())
                .contains("compilation failed: ERROR: <input>:1:1: Syntax error: extraneous input '?' " + expecting
                        + "\n | ?!\n | ^\n" + "ERROR: <input>:1:3: Syntax error: extraneous input '<EOF>' " + expecting
                        + "\n | ?!\n | ..^");
    }

    @Test
    void noMatchingOverloadWithoutCandidateList() {
        assertThat(env.compile("device.driver == 1").compileError())
                .contains(
                        "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(string, int)'\n"
                                + " | device.driver == 1\n | ..............^");
    }

    @Test
    void heterogeneousListLiteral() {
        assertThat(env.compile("[device.attributes['d'].n, 1][0] == 5").compileError())
                .contains("compilation failed: ERROR: <input>:1:28: expected type 'dyn' but found 'int'\n"
                        + " | [device.attributes['d'].n, 1][0] == 5\n | ...........................^");
    }

    @Test
    void invalidRegexLiteral() {
        assertThat(env.compile("device.driver.matches('[')").compileError())
                .contains("compilation failed: ERROR: <input>:1:23: invalid matches argument\n"
                        + " | device.driver.matches('[')\n | ......................^");
    }

    @Test
    void outputTypeMustBeBoolOrDyn() {
        assertThat(env.compile("1").compileError()).contains("must evaluate to bool or the unknown type, not int");
        assertThat(env.compile("device.attributes").compileError())
                .contains("must evaluate to bool or the unknown type, not map(string, map(string, dyn))");
        assertThat(env.compile("[[1]]").compileError())
                .contains("must evaluate to bool or the unknown type, not list(list(int))");
        assertThat(env.compile("optional.of(true)").compileError())
                .contains("must evaluate to bool or the unknown type, not optional_type(bool)");
        assertThat(env.compile("device").compileError())
                .contains("must evaluate to bool or the unknown type, not kubernetes.DRADevice");
        assertThat(env.compile("device.attributes['d'].n").compileError()).isEmpty();
    }

    @Test
    void nonBoolResults() {
        assertThat(eval("device.attributes['dra.example.com'].names"))
                .isEqualTo(
                        new EvalResult.Failed(
                                "CEL result of type list could not be converted to bool: type conversion error from list to 'bool'"));
        assertThat(eval("device.attributes['dra.example.com'].n"))
                .isEqualTo(
                        new EvalResult.Failed(
                                "CEL result of type int could not be converted to bool: unsupported type conversion from 'int' to bool"));
        assertThat(eval("dyn('a')"))
                .isEqualTo(new EvalResult.Failed(
                        "CEL result of type string could not be converted to bool: unsupported native conversion from string to"
                                + " 'bool'"));
        assertThat(eval("dyn(null)"))
                .isEqualTo(new EvalResult.Failed(
                        "CEL result of type null_type could not be converted to bool: type conversion error from 'null_type' to"
                                + " 'bool'"));
    }

    @Test
    void runtimeErrors() {
        assertThat(eval("1/0 == 1")).isEqualTo(new EvalResult.Failed("division by zero"));
        assertThat(eval("1 % 0 == 0")).isEqualTo(new EvalResult.Failed("modulus by zero"));
        assertThat(eval("9223372036854775807 + 1 == 0")).isEqualTo(new EvalResult.Failed("integer overflow"));
        assertThat(eval("[1][2] == 0")).isEqualTo(new EvalResult.Failed("index out of bounds: 2"));
        assertThat(eval("device.attributes['dra.example.com'].n + 'a' == 'b'"))
                .isEqualTo(new EvalResult.Failed("no such overload"));
        assertThat(eval("device.attributes['dra.example.com'].n.exists(x, x > 0)"))
                .isEqualTo(new EvalResult.Failed("got 'types.Int', expected iterable type"));
    }
}
