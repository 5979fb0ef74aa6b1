//! Checks on media bytes carried as base64: validity, decoded size and the real image type.
//!
//! Shared by the normaliser (which repairs what it can) and the strict validators (which
//! report what a provider would reject).

/// Value of one standard base64 alphabet character.
pub(crate) fn base64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decoded byte length of padded standard base64, or why the text is not such base64.
pub(crate) fn base64_decoded_len(data: &str) -> Result<usize, String> {
    let bytes = data.as_bytes();
    if bytes.is_empty() {
        return Err("empty data".to_string());
    }
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "length {} is not a multiple of 4 (padding missing?)",
            bytes.len()
        ));
    }
    let pad = bytes.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return Err("more than two '=' padding characters".to_string());
    }
    let body_len = bytes.len() - pad;
    if let Some(pos) = bytes
        .iter()
        .take(body_len)
        .position(|&c| base64_value(c).is_none())
    {
        return Err(format!("invalid character at offset {pos}"));
    }
    Ok(bytes.len() / 4 * 3 - pad)
}

/// Decodes padded standard base64 whole (a Bedrock `PayloadPart`'s `bytes`), or says why it
/// is not such base64.
pub(crate) fn base64_decode(data: &str) -> Result<Vec<u8>, String> {
    let len = base64_decoded_len(data)?;
    let mut out = Vec::with_capacity(len);
    for chunk in data.as_bytes().chunks(4) {
        let vals: Vec<u8> = chunk.iter().map_while(|&c| base64_value(c)).collect();
        let mut acc: u32 = 0;
        for (n, v) in vals.iter().enumerate() {
            acc |= u32::from(*v) << (18 - 6 * n);
        }
        let [_, b0, b1, b2] = acc.to_be_bytes();
        out.extend([b0, b1, b2].into_iter().take(vals.len().saturating_sub(1)));
    }
    if out.len() == len {
        Ok(out)
    } else {
        Err("padding inside the data".to_string())
    }
}

/// Decodes the first few bytes (up to 12) of valid padded base64.
pub(crate) fn base64_prefix(data: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(12);
    for chunk in data.as_bytes().chunks(4).take(4) {
        let vals: Vec<u8> = chunk.iter().map_while(|&c| base64_value(c)).collect();
        let mut acc: u32 = 0;
        for (n, v) in vals.iter().enumerate() {
            acc |= u32::from(*v) << (18 - 6 * n);
        }
        let [_, b0, b1, b2] = acc.to_be_bytes();
        let produced = match vals.len() {
            4 => 3,
            3 => 2,
            2 => 1,
            _ => 0,
        };
        out.extend([b0, b1, b2].into_iter().take(produced));
        if produced < 3 {
            break;
        }
    }
    out
}

/// Media type of an image from its leading bytes.
pub(crate) fn sniff_image(head: &[u8]) -> Option<&'static str> {
    if head.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
        Some("image/png")
    } else if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        Some("image/jpeg")
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if head.starts_with(b"RIFF") && head.get(8..12) == Some(b"WEBP".as_slice()) {
        Some("image/webp")
    } else {
        None
    }
}

/// Splits a `data:` URL into (mime type, base64 payload) when it is base64-encoded.
///
/// ```
/// let (m, d) = turnwire::model::split_data_url("data:image/png;base64,AAAA").unwrap();
/// assert_eq!((m, d), ("image/png", "AAAA"));
/// ```
pub fn split_data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mime = head.strip_suffix(";base64")?;
    Some((mime, data))
}

#[cfg(test)]
mod base64_tests {
    use super::base64_decode;

    #[test]
    fn base64_decode_takes_padded_standard_base64_whole() {
        assert_eq!(base64_decode("aGk="), Ok(b"hi".to_vec()));
        assert_eq!(base64_decode("aGV5"), Ok(b"hey".to_vec()));
        assert_eq!(base64_decode("YQ=="), Ok(b"a".to_vec()));
        assert!(base64_decode("aG=k").is_err());
        assert!(base64_decode("not base64!").is_err());
        assert!(base64_decode("").is_err());
    }
}
