// The reading side of WireProducer: decodes values in Confluent's Schema Registry wire format with
// the Java libraries Confluent's deserializers use, so tests can check that Java reads what sluice
// writes (KafkaAvroDeserializer: GenericDatumReader on a binaryDecoder; KafkaJsonSchemaDeserializer:
// Jackson; KafkaProtobufDeserializer: MessageIndexes.readFrom, then the message of that index path).
// Compiled with WireProducer.java (scripts/java/wire-producer/build.mjs):
//
//   java -cp <same class path> WireDecoder <avro|json|protobuf> <schemaFile>
//
// Standard input: one value a line, in hex. Standard output, one JSON line per value:
// {"id": <schema id>, "indexes": [..] (Protobuf only), "value": <the value as JSON>} where Avro values
// are GenericData's JSON rendering, Protobuf values JsonFormat's (proto field names, 64-bit integers
// as strings, enums by name), or {"error": "<message>"} for a value that cannot be read (no magic
// byte, bytes left over, ...).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.util.JsonFormat;
import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;

public class WireDecoder {
    public static void main(String[] args) throws Exception {
        if (args.length < 2) throw new IllegalArgumentException("usage: WireDecoder <avro|json|protobuf> <schemaFile>");
        String format = args[0];
        String schema = Files.readString(Path.of(args[1]), StandardCharsets.UTF_8);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) continue;
            ObjectNode out = WireProducer.JSON.createObjectNode();
            try {
                decode(format, schema, ByteBuffer.wrap(HexFormat.of().parseHex(line.trim())), out);
            } catch (Exception e) {
                out.removeAll();
                out.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            }
            System.out.println(WireProducer.JSON.writeValueAsString(out));
        }
    }

    static void decode(String format, String schemaText, ByteBuffer buffer, ObjectNode out) throws Exception {
        // 1. magic byte and id (AbstractKafkaSchemaSerDe.getByteBuffer)
        if (buffer.get() != 0) throw new IllegalArgumentException("Unknown magic byte!");
        out.put("id", buffer.getInt());
        // 2. the payload
        switch (format) {
            case "avro" -> {
                Schema schema = new Schema.Parser().parse(schemaText);
                BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(buffer.array(), buffer.position(), buffer.remaining(), null);
                Object datum = new GenericDatumReader<Object>(schema).read(null, decoder);
                if (!decoder.isEnd()) throw new IllegalArgumentException("bytes left after the Avro datum");
                out.set("value", WireProducer.JSON.readTree(GenericData.get().toString(datum)));
            }
            case "json" -> {
                JsonNode value = WireProducer.JSON.readTree(buffer.array(), buffer.position(), buffer.remaining());
                out.set("value", value);
            }
            case "protobuf" -> {
                List<Integer> indexes = readIndexes(buffer);
                out.set("indexes", WireProducer.JSON.valueToTree(indexes));
                Descriptor descriptor = byIndexes(WireProducer.fileDescriptor(schemaText), indexes);
                DynamicMessage message = DynamicMessage.parseFrom(descriptor, com.google.protobuf.ByteString.copyFrom(buffer));
                out.put("type", descriptor.getFullName());
                out.set("value", WireProducer.JSON.readTree(JsonFormat.printer().preservingProtoFieldNames().print(message)));
            }
            default -> throw new IllegalArgumentException("unknown format " + format);
        }
    }

    /** MessageIndexes.readFrom: a zig-zag varint count (0: the single index [0]), then each index. */
    static List<Integer> readIndexes(ByteBuffer buffer) {
        int count = readVarint(buffer);
        if (count == 0) return List.of(0);
        List<Integer> indexes = new ArrayList<>();
        for (int i = 0; i < count; i++) indexes.add(readVarint(buffer));
        return indexes;
    }

    /** Kafka's ByteUtils.readVarint: 7 bits a byte, low first, then zig-zag. */
    static int readVarint(ByteBuffer buffer) {
        int raw = 0;
        for (int shift = 0; ; shift += 7) {
            if (shift > 28) throw new IllegalArgumentException("varint too long");
            byte b = buffer.get();
            raw |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) break;
        }
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** The message at this index path of the file (top-level index, then nested indexes). */
    static Descriptor byIndexes(FileDescriptor file, List<Integer> indexes) {
        Descriptor d = file.getMessageTypes().get(indexes.get(0));
        for (int i = 1; i < indexes.size(); i++) d = d.getNestedTypes().get(indexes.get(i));
        return d;
    }
}
