package io.cloudg.fleet.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * A message nobody could use, on the dead-letter topic with the reason: where it came from, by whom it
 * was refused, and its bytes (as text when they are UTF-8, else base64) and headers, so that it can be
 * inspected or replayed. The {@code cloudg-run} header, when the original had one, lets a coordinator
 * notice that one of its own tasks was refused.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DeadLetter(int v, String reason, String topic, int partition, long offset, String key, String value,
                         String valueBase64, Map<String, String> headers, String refusedBy, long at) {
    public DeadLetter {
        Wire.version(v);
        Wire.required("reason", reason);
        Wire.required("topic", topic);
        Wire.required("refused_by", refusedBy);
        headers = headers == null ? Map.of() : Map.copyOf(headers);
    }
}
