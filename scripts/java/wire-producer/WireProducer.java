// A Java producer of records in Confluent's Schema Registry wire format, built without Confluent's
// serializers (they are not on Maven Central) but writing what they write:
//
//   byte 0        magic byte 0
//   bytes 1-4     the schema id, 4-byte big-endian            (AbstractKafkaSchemaSerDe: ByteBuffer.putInt)
//   then, Avro:      the Avro binary encoding of the datum   (AbstractKafkaAvroSerializer: GenericDatumWriter
//                    on a directBinaryEncoder)
//         JSON:      the value as Jackson writes it          (AbstractKafkaJsonSchemaSerializer:
//                    objectMapper.writeValueAsBytes)
//         Protobuf:  the message indexes (MessageIndexes.toByteArray: a single 0 for the first message of
//                    the file, else the zig-zag varint count then each index), then the message
//                    (AbstractKafkaProtobufSerializer)
//
// Java 17 source launcher, with the broker's jars (kafka-clients, Jackson) and the jars of
// scripts/java/wire-producer/pom.xml (Avro, protobuf-java, Apicurio's .proto parser) on the class path:
//
//   java -cp '<kafka libs>/*:<wire libs>/*' scripts/java/wire-producer/WireProducer.java \
//        <bootstrap> <topic> <avro|json|protobuf> <schemaId> <schemaFile> [<messageType>]
//
// Records come on standard input, one JSON object a line: {"key": "k" | null, "value": <plain JSON>,
// "partition": n (optional), "messageType": "..." (optional, Protobuf: another message of the same
// file, hence the same schema id, as with Confluent)}. Avro values are plain JSON mapped onto the schema (records as objects,
// a union takes the first branch the value fits, bytes/fixed as ISO-8859-1 strings as in Avro's JSON
// encoding); Protobuf values are objects keyed by field name (or JSON name), 64-bit integers as numbers
// or strings, bytes as base64, enums by name or number. Prints "WROTE <partition> <offset> <value hex>"
// per record, in input order, then "PRODUCED <topic> <count>".
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.*;
import java.util.concurrent.Future;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import io.apicurio.registry.utils.protobuf.schema.FileDescriptorUtils;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

public class WireProducer {
    static final ObjectMapper JSON = new ObjectMapper();

    /** Turns one plain-JSON value into the payload that follows the magic byte and the id. */
    interface Payload {
        byte[] encode(JsonNode value) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 5) {
            throw new IllegalArgumentException("usage: WireProducer <bootstrap> <topic> <avro|json|protobuf> <schemaId> <schemaFile> [<messageType>]");
        }
        String bootstrap = args[0];
        String topic = args[1];
        String format = args[2];
        int schemaId = Integer.parseInt(args[3]);
        String schema = Files.readString(Path.of(args[4]), StandardCharsets.UTF_8);
        String messageType = args.length > 5 ? args[5] : null;
        // 1. The payload encoder of the format, built once from the schema text (Protobuf: once per message type).
        Map<String, Payload> protobufPayloads = new HashMap<>();
        Payload payload = switch (format) {
            case "avro" -> avro(schema);
            case "json" -> JSON::writeValueAsBytes;
            case "protobuf" -> protobuf(schema, messageType);
            default -> throw new IllegalArgumentException("unknown format " + format + " (avro, json or protobuf)");
        };
        // 2. The records, each value framed as Confluent's serializers frame it.
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            if (line.isBlank()) continue;
            JsonNode record = JSON.readTree(line);
            JsonNode key = record.get("key");
            JsonNode partition = record.get("partition");
            JsonNode type = record.get("messageType");
            Payload encoder = payload;
            if (format.equals("protobuf") && type != null && !type.isNull()) {
                encoder = protobufPayloads.get(type.asText());
                if (encoder == null) protobufPayloads.put(type.asText(), encoder = protobuf(schema, type.asText()));
            }
            byte[] value = frame(schemaId, encoder.encode(record.get("value")));
            records.add(new ProducerRecord<>(topic, partition == null || partition.isNull() ? null : partition.asInt(),
                    key == null || key.isNull() ? null : key.asText(), value));
        }
        // 3. Produce them (acks=all, idempotent) and report where each landed.
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000"); // a missing topic fails in 20 s, not 60
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<String, byte[]> r : records) sent.add(producer.send(r));
            producer.flush();
            for (int i = 0; i < sent.size(); i++) {
                RecordMetadata m = sent.get(i).get();
                System.out.println("WROTE " + m.partition() + " " + m.offset() + " " + hex(records.get(i).value()));
            }
        }
        System.out.println("PRODUCED " + topic + " " + records.size());
    }

    /** Magic byte 0, the id as 4 bytes big-endian, the payload. */
    static byte[] frame(int schemaId, byte[] payload) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(0);
        out.writeBytes(ByteBuffer.allocate(4).putInt(schemaId).array());
        out.writeBytes(payload);
        return out.toByteArray();
    }

    // ---- Avro ------------------------------------------------------------------------------------

    static Payload avro(String schemaText) {
        Schema schema = new Schema.Parser().parse(schemaText);
        GenericDatumWriter<Object> writer = new GenericDatumWriter<>(schema);
        return (value) -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
            writer.write(toAvro(schema, value), encoder);
            encoder.flush();
            return out.toByteArray();
        };
    }

    /** The generic datum of `schema` for a plain JSON value. */
    static Object toAvro(Schema schema, JsonNode v) {
        switch (schema.getType()) {
            case NULL: return null;
            case BOOLEAN: return v.asBoolean();
            case INT: return v.asInt();
            case LONG: return v.asLong();
            case FLOAT: return (float) v.asDouble();
            case DOUBLE: return v.asDouble();
            case STRING: return v.asText();
            case BYTES: return ByteBuffer.wrap(v.asText().getBytes(StandardCharsets.ISO_8859_1));
            case FIXED: return new GenericData.Fixed(schema, v.asText().getBytes(StandardCharsets.ISO_8859_1));
            case ENUM: return new GenericData.EnumSymbol(schema, v.asText());
            case ARRAY: {
                List<Object> items = new ArrayList<>();
                for (JsonNode item : v) items.add(toAvro(schema.getElementType(), item));
                return new GenericData.Array<>(schema, items);
            }
            case MAP: {
                Map<String, Object> map = new LinkedHashMap<>();
                v.fields().forEachRemaining((e) -> map.put(e.getKey(), toAvro(schema.getValueType(), e.getValue())));
                return map;
            }
            case RECORD: {
                GenericData.Record record = new GenericData.Record(schema);
                for (Schema.Field f : schema.getFields()) {
                    JsonNode fv = v.get(f.name());
                    if (fv == null && f.hasDefaultValue()) record.put(f.pos(), GenericData.get().getDefaultValue(f));
                    else record.put(f.pos(), toAvro(f.schema(), fv == null ? JSON.nullNode() : fv));
                }
                return record;
            }
            case UNION: {
                for (Schema branch : schema.getTypes()) if (fits(branch, v)) return toAvro(branch, v);
                throw new IllegalArgumentException("value " + v + " fits no branch of " + schema);
            }
            default: throw new IllegalArgumentException("unsupported Avro type " + schema.getType());
        }
    }

    /** True when the plain JSON value can be written with this union branch. */
    static boolean fits(Schema s, JsonNode v) {
        return switch (s.getType()) {
            case NULL -> v == null || v.isNull();
            case BOOLEAN -> v.isBoolean();
            case INT -> v.isIntegralNumber() && v.canConvertToInt();
            case LONG -> v.isIntegralNumber() && v.canConvertToLong();
            case FLOAT, DOUBLE -> v.isNumber();
            case STRING, BYTES -> v.isTextual();
            case FIXED -> v.isTextual() && v.asText().length() == s.getFixedSize();
            case ENUM -> v.isTextual() && s.getEnumSymbols().contains(v.asText());
            case ARRAY -> v.isArray();
            case MAP, RECORD -> v.isObject();
            default -> false;
        };
    }

    // ---- Protobuf --------------------------------------------------------------------------------

    /** The .proto text parsed into a protobuf-java FileDescriptor (Apicurio's parser, Square's wire-schema underneath). */
    static FileDescriptor fileDescriptor(String schemaText) throws Exception {
        // Apicurio's loader wants the file under its package's folder (as protoc's import paths)
        java.util.regex.Matcher pkg = java.util.regex.Pattern.compile("(?m)^\\s*package\\s+([\\w.]+)\\s*;").matcher(schemaText);
        Optional<String> packageName = pkg.find() ? Optional.of(pkg.group(1)) : Optional.empty();
        return FileDescriptorUtils.protoFileToFileDescriptor(schemaText, "schema.proto", packageName);
    }

    static Payload protobuf(String schemaText, String messageType) throws Exception {
        FileDescriptor file = fileDescriptor(schemaText);
        List<Integer> indexes = new ArrayList<>();
        Descriptor descriptor = messageType == null ? file.getMessageTypes().get(0) : find(file, messageType, indexes);
        if (messageType == null) indexes.add(0);
        byte[] indexBytes = messageIndexes(indexes);
        return (value) -> {
            DynamicMessage message = toMessage(descriptor, value);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(indexBytes);
            message.writeTo(out);
            return out.toByteArray();
        };
    }

    /** The message named `name` (full name, or the name within the file's package), filling its index path. */
    static Descriptor find(FileDescriptor file, String name, List<Integer> path) {
        String pkg = file.getPackage();
        String full = name.contains(".") && (pkg.isEmpty() || name.startsWith(pkg + ".")) ? name : (pkg.isEmpty() ? name : pkg + "." + name);
        List<Descriptor> top = file.getMessageTypes();
        for (int i = 0; i < top.size(); i++) {
            path.add(i);
            Descriptor found = find(top.get(i), full, path);
            if (found != null) return found;
            path.remove(path.size() - 1);
        }
        throw new IllegalArgumentException("message type " + name + " is not in the schema");
    }

    static Descriptor find(Descriptor d, String full, List<Integer> path) {
        if (d.getFullName().equals(full)) return d;
        List<Descriptor> nested = d.getNestedTypes();
        for (int i = 0; i < nested.size(); i++) {
            path.add(i);
            Descriptor found = find(nested.get(i), full, path);
            if (found != null) return found;
            path.remove(path.size() - 1);
        }
        return null;
    }

    /** Confluent's MessageIndexes.toByteArray: [0] as the single byte 0, else count then indexes (zig-zag varints). */
    static byte[] messageIndexes(List<Integer> indexes) {
        if (indexes.equals(List.of(0))) return new byte[] { 0 };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writeVarint(indexes.size(), out);
        for (int i : indexes) writeVarint(i, out);
        return out.toByteArray();
    }

    /** Kafka's ByteUtils.writeVarint (what MessageIndexes calls): zig-zag, then 7 bits a byte, low first. */
    static void writeVarint(int value, ByteArrayOutputStream out) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }

    /** A DynamicMessage of `d` from a JSON object keyed by field name or JSON name. */
    static DynamicMessage toMessage(Descriptor d, JsonNode v) {
        DynamicMessage.Builder b = DynamicMessage.newBuilder(d);
        v.fields().forEachRemaining((e) -> {
            FieldDescriptor f = d.findFieldByName(e.getKey());
            if (f == null) f = d.getFields().stream().filter((x) -> x.getJsonName().equals(e.getKey())).findFirst().orElse(null);
            if (f == null) throw new IllegalArgumentException("message " + d.getFullName() + " has no field " + e.getKey());
            JsonNode fv = e.getValue();
            if (fv.isNull()) return;
            if (f.isMapField()) {
                Descriptor entry = f.getMessageType();
                FieldDescriptor kf = entry.findFieldByName("key");
                FieldDescriptor vf = entry.findFieldByName("value");
                for (Iterator<Map.Entry<String, JsonNode>> it = fv.fields(); it.hasNext();) {
                    Map.Entry<String, JsonNode> me = it.next();
                    b.addRepeatedField(f, DynamicMessage.newBuilder(entry)
                            .setField(kf, scalar(kf, JSON.getNodeFactory().textNode(me.getKey())))
                            .setField(vf, scalar(vf, me.getValue())).build());
                }
            } else if (f.isRepeated()) {
                for (JsonNode item : fv) b.addRepeatedField(f, scalar(f, item));
            } else {
                b.setField(f, scalar(f, fv));
            }
        });
        return b.build();
    }

    /** One (non-repeated) field value of `f` from JSON. */
    static Object scalar(FieldDescriptor f, JsonNode v) {
        return switch (f.getJavaType()) {
            case INT -> v.isTextual() ? Integer.parseInt(v.asText()) : v.asInt();
            case LONG -> v.isTextual() ? Long.parseLong(v.asText()) : v.asLong();
            case FLOAT -> (float) v.asDouble();
            case DOUBLE -> v.asDouble();
            case BOOLEAN -> v.isTextual() ? Boolean.parseBoolean(v.asText()) : v.asBoolean();
            case STRING -> v.asText();
            case BYTE_STRING -> ByteString.copyFrom(Base64.getDecoder().decode(v.asText()));
            case ENUM -> enumValue(f, v);
            case MESSAGE -> toMessage(f.getMessageType(), v);
        };
    }

    static EnumValueDescriptor enumValue(FieldDescriptor f, JsonNode v) {
        EnumValueDescriptor e = v.isNumber() ? f.getEnumType().findValueByNumber(v.asInt()) : f.getEnumType().findValueByName(v.asText());
        if (e == null) throw new IllegalArgumentException("enum " + f.getEnumType().getFullName() + " has no value " + v);
        return e;
    }

    static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) s.append(String.format("%02x", b));
        return s.toString();
    }
}
