package io.ricochet.loadgen.protobuf;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.ricochet.loadgen.workload.Check;
import io.ricochet.loadgen.workload.Context;
import io.ricochet.loadgen.workload.RpcReply;
import io.ricochet.rpc.RpcStatus;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What every answer must be: of an expected status ({@code OK} unless said), and, when {@code OK}, a message of the
 * answer type that contains the fields of an expected JSON with their values. Only the fields the JSON names are
 * compared, so {@code {"client_id": 1}} accepts any answer whose {@code client_id} is 1, and {@code {"count": 0}} one
 * whose count is 0 or unset. Placeholders in its string values are filled in with the call's own {@link Context}, so
 * an answer can be expected to echo what its request sent: even {@code {{rand:N}}}, whose bytes depend on the seed,
 * the call and the placeholder's place in its string, so the same string makes the same bytes here as in the request.
 *
 * <pre>{@code
 * Expectation echoed = Expectation.of(bench, RpcStatus.OK, "{\"client_id\": \"{{conn}}\", \"sequence\": \"{{seq}}\"}", seed);
 * Check check = echoed.check(request, reply); // bad: "field sequence: 8 (expected: 7)"
 * }</pre>
 *
 * A bad answer's reason is one line of at most {@value #MAX_REASON} characters:
 * {@code status NOT_FOUND (expected: OK): no method bench.updat}, {@code the answer is not a ricochet.bench.BenchMessage:
 * …}, {@code field inner.name: "b" (expected: "a")}.
 */
public final class Expectation {
    /** The longest reason a bad answer is given. */
    public static final int MAX_REASON = 200;

    private final MessageType answerType;
    private final RpcStatus status;
    private final TemplatedMessage expected;
    private final AnswerSubset subset;

    private Expectation(MessageType answerType, RpcStatus status, TemplatedMessage expected, AnswerSubset subset) {
        this.answerType = answerType;
        this.status = status;
        this.expected = expected;
        this.subset = subset;
    }

    /**
     * The status named {@code code}, in any case ({@code not_found}); an {@link IllegalArgumentException} listing the
     * statuses for a name that is none.
     */
    public static RpcStatus status(String code) {
        try {
            return RpcStatus.valueOf(code.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown status " + code + " (expected: one of "
                    + Arrays.stream(RpcStatus.values()).map(Enum::name).collect(Collectors.joining(", ")) + ")");
        }
    }

    /** Any {@code OK} answer that parses as {@code answerType}. */
    public static Expectation anyAnswer(MessageType answerType) {
        return new Expectation(answerType, RpcStatus.OK, null, null);
    }

    /**
     * Answers of {@code status} and, if it is {@code OK} and {@code json} is not null, answers that contain
     * {@code json}'s fields. {@code json} is checked against {@code answerType} whatever the status, and a field that
     * does not fit is an {@link IllegalArgumentException} naming it, as for {@link RequestData}; with another status it
     * is not applied, since such an answer has no message.
     *
     * @param seed the run's seed, from which {@code {{rand:N}}} makes its bytes (the requests' seed, to expect theirs)
     */
    public static Expectation of(MessageType answerType, RpcStatus status, String json, long seed) {
        if (json == null) {
            return new Expectation(answerType, status, null, null);
        }
        ObjectNode tree = JsonText.parseObject(json);
        TemplatedMessage expected = TemplatedMessage.parse(answerType, tree, seed);
        return status == RpcStatus.OK
                ? new Expectation(answerType, status, expected, AnswerSubset.of(answerType.descriptor(), tree))
                : new Expectation(answerType, status, null, null);
    }

    public RpcStatus status() {
        return status;
    }

    /**
     * The verdict on {@code reply}, the answer to the call made for {@code request}. An {@code OK} answer's bytes are
     * parsed and the named fields compared; the expected message was made once, or is made per call if its JSON has
     * placeholders.
     */
    public Check check(Context request, RpcReply reply) {
        if (reply.status() != status) {
            String detail = reply.detail() == null || reply.detail().isEmpty() ? "" : ": " + reply.detail();
            return bad("status " + reply.status() + " (expected: " + status + ")" + detail);
        }
        if (status != RpcStatus.OK) {
            return Check.ok();
        }
        DynamicMessage answer;
        try {
            answer = DynamicMessage.parseFrom(answerType.descriptor(), reply.payload());
        } catch (InvalidProtocolBufferException e) {
            return bad("the answer is not a " + answerType.fullName() + ": " + ProtoJson.clean(e.getMessage()));
        }
        if (subset == null) {
            return Check.ok();
        }
        String why = subset.mismatch(answer, expected.message(request), answerType);
        return why == null ? Check.ok() : bad(why);
    }

    private static Check bad(String reason) {
        return Check.bad(JsonText.abbreviate(reason.replaceAll("\\s+", " "), MAX_REASON));
    }
}
